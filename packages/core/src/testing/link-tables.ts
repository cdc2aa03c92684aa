export const VIEWERS = ["owner user", "team member", "other user", "link holder"] as const;
export type ViewerKey = (typeof VIEWERS)[number];
export const RUNS = ["own run", "team run", "stranger's run"] as const;
export type RunKey = (typeof RUNS)[number];
export type ReceiptKey = "user receipt" | "team receipt";

/**
 * SPEC §9 as tables, shared by every surface's tests. A run is listed in `produced_by`
 * only when it has the receipt's owner and the viewer may read the run; runs have no
 * share links, so a link holder is shown none. Viewers who may not read the receipt get
 * the same 404 as for a missing id.
 */
export const PRODUCED_BY_TABLE: ReadonlyArray<[ViewerKey, ReceiptKey, RunKey, "listed" | "hidden" | "not_found"]> = [
  ["owner user", "user receipt", "own run", "listed"],
  ["owner user", "user receipt", "team run", "hidden"],
  ["owner user", "user receipt", "stranger's run", "hidden"],
  ["team member", "user receipt", "own run", "not_found"],
  ["team member", "user receipt", "team run", "not_found"],
  ["team member", "user receipt", "stranger's run", "not_found"],
  ["other user", "user receipt", "own run", "not_found"],
  ["other user", "user receipt", "team run", "not_found"],
  ["other user", "user receipt", "stranger's run", "not_found"],
  ["link holder", "user receipt", "own run", "hidden"],
  ["link holder", "user receipt", "team run", "hidden"],
  ["link holder", "user receipt", "stranger's run", "hidden"],
  ["owner user", "team receipt", "own run", "hidden"],
  ["owner user", "team receipt", "team run", "listed"],
  ["owner user", "team receipt", "stranger's run", "hidden"],
  ["team member", "team receipt", "own run", "hidden"],
  ["team member", "team receipt", "team run", "listed"],
  ["team member", "team receipt", "stranger's run", "hidden"],
  ["other user", "team receipt", "own run", "not_found"],
  ["other user", "team receipt", "team run", "not_found"],
  ["other user", "team receipt", "stranger's run", "not_found"],
  ["link holder", "team receipt", "own run", "hidden"],
  ["link holder", "team receipt", "team run", "hidden"],
  ["link holder", "team receipt", "stranger's run", "hidden"],
];

/** The same rule for `follows`: a receipt following the user's (or the team's) receipt. */
export const FOLLOWS_TABLE: ReadonlyArray<[ViewerKey, ReceiptKey, "shown" | "hidden" | "not_found"]> = [
  ["owner user", "user receipt", "shown"],
  ["team member", "user receipt", "not_found"],
  ["other user", "user receipt", "not_found"],
  ["link holder", "user receipt", "hidden"],
  ["owner user", "team receipt", "shown"],
  ["team member", "team receipt", "shown"],
  ["other user", "team receipt", "not_found"],
  ["link holder", "team receipt", "hidden"],
];

/** Who can read (and so append to or close) each run. Anyone else gets the 404 of a missing id. */
export const RUN_ACCESS_TABLE: ReadonlyArray<[Exclude<ViewerKey, "link holder">, RunKey, "readable" | "not_found"]> = [
  ["owner user", "own run", "readable"],
  ["owner user", "team run", "readable"],
  ["owner user", "stranger's run", "not_found"],
  ["team member", "own run", "not_found"],
  ["team member", "team run", "readable"],
  ["team member", "stranger's run", "not_found"],
  ["other user", "own run", "not_found"],
  ["other user", "team run", "not_found"],
  ["other user", "stranger's run", "readable"],
];

/** `follows` must name a receipt of the new receipt's own owner: user or team. */
export const FOLLOWS_CREATE_TABLE: ReadonlyArray<[Exclude<ViewerKey, "link holder">, "self" | "team", ReceiptKey, "accepted" | "foreign-link"]> = [
  ["owner user", "self", "user receipt", "accepted"],
  ["owner user", "self", "team receipt", "foreign-link"],
  ["owner user", "team", "user receipt", "foreign-link"],
  ["owner user", "team", "team receipt", "accepted"],
  ["team member", "self", "user receipt", "foreign-link"],
  ["team member", "self", "team receipt", "foreign-link"],
  ["team member", "team", "team receipt", "accepted"],
  ["other user", "self", "user receipt", "foreign-link"],
  ["other user", "self", "team receipt", "foreign-link"],
];

/** Producing spans the write rule refuses: the run's owner differs from the receipt's. */
export const REFUSED_EDGES: ReadonlyArray<[RunKey, ReceiptKey]> = [
  ["team run", "user receipt"],
  ["stranger's run", "user receipt"],
  ["own run", "team receipt"],
  ["stranger's run", "team receipt"],
];
