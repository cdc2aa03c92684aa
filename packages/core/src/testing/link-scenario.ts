import { readArtifactByShareToken } from "../artifact/read.js";
import type { Artifact } from "../artifact/schemas.js";
import { type CairnErrorBody, toCairnError } from "../errors.js";
import { authenticate } from "../identity/tokens.js";
import type { TestWorld } from "./fixtures.js";
import { REFUSED_EDGES, type ReceiptKey, RUNS, type RunKey } from "./link-tables.js";

export { type ReceiptKey, RUNS, type RunKey, VIEWERS, type ViewerKey } from "./link-tables.js";

import type { TestUser } from "./fixtures.js";
import { minimalReceipt } from "./receipts.js";

/** What a surface answered: the value, or the shared error body. */
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: CairnErrorBody };

/**
 * One scenario, many surfaces: each call acts as a user, the way a request carrying that
 * user's token would (so team membership is read afresh on every call).
 */
export interface LinkDriver {
  invoke(as: TestUser, operation: string, input: Record<string, unknown>): Promise<Outcome>;
  /** A viewer who holds only the share link. */
  readByLink(url: string): Promise<Outcome<Artifact>>;
}

/** Drives core directly: the principal is re-derived from the token on every call. */
export function coreLinkDriver(world: TestWorld): LinkDriver {
  const settle = async <T>(p: Promise<T>): Promise<Outcome<T>> => {
    try {
      return { ok: true, value: await p };
    } catch (err) {
      return { ok: false, error: toCairnError(err).toBody() };
    }
  };
  return {
    async invoke(as, operation, input) {
      const principal = await authenticate(world.store, as.token);
      if (!principal) throw new Error(`${as.name} does not authenticate`);
      return settle(world.cairn.invoke(operation as never, world.cairn.context(principal, "rest"), input));
    },
    readByLink: (url) => settle(readArtifactByShareToken(world.store, world.cairn.config, url.split("/s/")[1] ?? "")),
  };
}

export interface LinkScenario {
  users: { owner: TestUser; member: TestUser; other: TestUser };
  team: string;
  receipts: Record<ReceiptKey, { id: string; url: string }>;
  /** Receipts that follow the two above, created by their owners. */
  followers: Record<ReceiptKey, { id: string; url: string }>;
  runs: Record<RunKey, { id: string; name: string }>;
  /** Answers to the producing spans the write rule refused, keyed "run → receipt". */
  refused: Record<string, Outcome>;
  /** The answer to a span naming an id that exists nowhere, on each run. */
  unknown: Record<RunKey, Outcome>;
  driver: LinkDriver;
}

const UNKNOWN_ARTIFACT = "art_00000000000000000000000000";

function must<T>(o: Outcome<T>, what: string): T {
  if (!o.ok) throw new Error(`${what} failed: ${JSON.stringify(o.error)}`);
  return o.value;
}

const span = (id: string, produced: string) => ({
  span_id: id,
  name: "write-receipt",
  start_time: "2026-11-01T10:00:00Z",
  end_time: "2026-11-01T10:00:02Z",
  produced_artifact_id: produced,
});

/**
 * The seed's tenancy scenario: owner O and member M share a team; S is a stranger. O owns
 * a receipt, the team owns another. Each of O's own run, the team's run and S's run
 * claims to have produced both receipts: the two same-owner claims go through the verb,
 * the others are refused by the write rule and then planted straight into the store, as
 * an older or looser writer could have, so the read rule is tested on its own.
 */
export async function setupLinkScenario(world: TestWorld, driver: LinkDriver): Promise<LinkScenario> {
  const owner = await world.user("owner");
  const member = await world.user("member");
  const other = await world.user("other");
  const team = `team-${owner.name.slice(-8)}`;
  must(await driver.invoke(owner, "team_create", { name: team }), "team_create");
  must(await driver.invoke(owner, "team_member_add", { name: team, user: member.name }), "team_member_add");
  must(await driver.invoke(member, "team_invitation_accept", { name: team }), "team_invitation_accept");

  const receipt = async (as: TestUser, fields: Record<string, unknown>) =>
    must(await driver.invoke(as, "receipt_create", minimalReceipt(fields)), "receipt_create") as { id: string; url: string };
  const receipts: LinkScenario["receipts"] = {
    "user receipt": await receipt(owner, { learned: `owner's ${team}` }),
    "team receipt": await receipt(owner, { learned: `team's ${team}`, owner: `team:${team}` }),
  };
  const followers: LinkScenario["followers"] = {
    "user receipt": await receipt(owner, { learned: "follow-up", follows: receipts["user receipt"].id }),
    "team receipt": await receipt(member, { learned: "follow-up", follows: receipts["team receipt"].id, owner: `team:${team}` }),
  };

  const run = async (as: TestUser, name: string, runOwner?: string) =>
    must(await driver.invoke(as, "run_create", { name, ...(runOwner && { owner: runOwner }) }), "run_create") as { id: string; name: string };
  const runs: LinkScenario["runs"] = {
    "own run": await run(owner, "owner-nightly"),
    "team run": await run(member, "team-deploy", `team:${team}`),
    "stranger's run": await run(other, "stranger-probe"),
  };
  const actor: Record<RunKey, TestUser> = { "own run": owner, "team run": member, "stranger's run": other };
  const append = (key: RunKey, spanId: string, produced: string) =>
    driver.invoke(actor[key], "run_append_spans", { run_id: runs[key].id, spans: [span(spanId, produced)] });

  must(await append("own run", "s-own", receipts["user receipt"].id), "own run → user receipt");
  must(await append("team run", "s-team", receipts["team receipt"].id), "team run → team receipt");
  const refused: Record<string, Outcome> = {};
  for (const [key, target] of REFUSED_EDGES) {
    refused[`${key} → ${target}`] = await append(key, `p-${target.split(" ")[0]}`, receipts[target].id);
    await plantEdge(world, runs[key].id, `planted-${target.split(" ")[0]}`, receipts[target].id);
  }
  const unknown = {} as Record<RunKey, Outcome>;
  for (const key of RUNS) unknown[key] = await append(key, "u-1", UNKNOWN_ARTIFACT);

  return { users: { owner, member, other }, team, receipts, followers, runs, refused, unknown, driver };
}

/** Writes a span and its produced edge without the write rule (see setupLinkScenario). */
async function plantEdge(world: TestWorld, runId: string, spanId: string, artifactId: string): Promise<void> {
  await world.store.query(
    `insert into spans (run_id, span_id, name, start_time, attributes, produced_artifact_id, appended_at)
     values ($1, $2, 'planted', now(), '{}', $3, now())`,
    [runId, spanId, artifactId],
  );
  await world.store.query("insert into produced_edges (run_id, span_id, artifact_id, created_at) values ($1, $2, $3, now())", [runId, spanId, artifactId]);
}
