import { createHash, randomBytes } from "node:crypto";
import type { Artifact } from "../artifact/schemas.js";
import { decisionStateOf } from "./decision.js";
import { receiptLiveStateOf } from "./state.js";

/**
 * Pages are rendered by this process's code: a validator minted by another build (or
 * another process, whose templates may differ during a rolling deploy) must not match.
 * A random salt per process is never wrong; its cost is a full answer instead of a 304
 * after a restart or from a sibling process (ADR 0057).
 */
const PROCESS_SALT = randomBytes(12).toString("base64url");

/**
 * The strong validator (an `ETag`) of what a reader of `artifact` is shown at `now`: the
 * artifact object as that reader may see it (body, acknowledgements, assignee, follow-ups,
 * expiry) and the card's live state, which can change with time alone (a pending outcome
 * turning overdue, an ask passing its deadline). Any change to either is a new validator, so a 304 never hides one.
 * `variant` separates representations of one URL (the page and its JSON).
 *
 * The card is the artifact's, read at `now` only through `receiptLiveStateOf`, and this
 * process's code is in the salt: so the artifact and that state fix the page, and hashing
 * them stands for hashing the card, whose building and serializing was about half of the
 * validator's cost.
 */
export function readerValidator(artifact: Artifact, now: Date, variant: string): string {
  // An ask expires with time alone too, before the worker has marked it (view/decision.ts).
  const ask = artifact.ask ? decisionStateOf(artifact, now).state : "-";
  const live = `${receiptLiveStateOf(artifact, now) ?? "-"}\0${ask}`;
  const digest = createHash("sha256")
    .update(`${PROCESS_SALT}\0${variant}\0${live}\0${JSON.stringify(artifact)}`)
    .digest("base64url")
    .slice(0, 32);
  return `"${digest}"`;
}

/**
 * Whether an `If-None-Match` header names `etag` (RFC 9110 §13.1.2: a list of entity
 * tags or `*`, compared weakly — a `W/` prefix is ignored).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}
