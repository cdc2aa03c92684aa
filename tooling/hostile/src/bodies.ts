import { OPERATIONS, type OperationName } from "@cairn/core";
import { type FieldPath, fullReceipt, KEY, stringFieldPaths } from "@cairn/core/testing";
import fc from "fast-check";
import { hostileString, wrongType } from "./strings.js";

/** What a caller owns, so bodies can point at real things (a run, an artifact, a team). */
export interface Fixture {
  runId: string;
  closableRunId: string;
  artifactId: string;
  team: string;
  otherUser: string;
}

let serial = 0;
const unique = () => `${process.pid}-${++serial}`;

/** A valid input per verb; the generator then breaks one thing in it (or several). */
const BASES: { [N in OperationName]?: (f: Fixture) => Record<string, unknown> } = {
  receipt_create: () => fullReceipt({ learned: `hostile ${unique()}` }),
  artifact_create: () => ({ title: "Hostile note", body: `body ${unique()}`, tags: ["hostile"], model: "m-1" }),
  artifact_read: (f) => ({ id: f.artifactId }),
  artifact_search: () => ({ q: "export", tag: "receipt", limit: 5 }),
  artifact_export: () => ({ tag: "hostile" }),
  artifact_retain: (f) => ({ id: f.artifactId }),
  artifact_transfer: (f) => ({ id: f.artifactId, owner: `team:${f.team}` }),
  user_create: () => ({ name: `h-${unique()}` }),
  token_create: () => ({ name: `t ${unique()}`, kind: "agent" }),
  team_create: () => ({ name: `team-${unique()}` }),
  team_read: (f) => ({ name: f.team }),
  team_member_add: (f) => ({ name: f.team, user: f.otherUser }),
  team_member_remove: (f) => ({ name: f.team, user: f.otherUser }),
  team_invitation_list: () => ({ limit: 5 }),
  team_invitation_accept: (f) => ({ name: f.team }),
  team_invitation_decline: (f) => ({ name: f.team }),
  team_leave: (f) => ({ name: f.team, block: false }),
  team_block: () => ({ name: `blocked-${unique()}` }),
  team_unblock: () => ({ name: `blocked-${unique()}` }),
  run_create: () => ({ name: "hostile run" }),
  run_read: (f) => ({ run_id: f.runId }),
  run_append_spans: (f) => ({
    run_id: f.runId,
    spans: [{ span_id: `s-${unique()}`, name: "step", start_time: "2026-11-01T10:00:00Z", attributes: { k: "v", n: 1 } }],
  }),
  run_close: (f) => ({ run_id: f.closableRunId }),
  drops_list: () => ({ days: 7, limit: 5 }),
  policy_get: () => ({}),
};

export interface HostileCase {
  op: OperationName;
  /** What was broken, for the failure message. */
  label: string;
  build(f: Fixture): unknown;
}

const clone = <T>(v: T): T => structuredClone(v);

/** Puts `value` at `path` in `input`, creating what is missing (arrays get index 0). */
function setAt(input: Record<string, unknown>, path: FieldPath, value: unknown): void {
  let cur: Record<string | number, unknown> = input;
  path.forEach((step, i) => {
    const last = i === path.length - 1;
    if (step === KEY) {
      cur[typeof value === "string" ? value : String(value)] = "x";
      return;
    }
    if (last) {
      cur[step] = value;
      return;
    }
    const next = path[i + 1];
    const existing = cur[step];
    if (typeof existing !== "object" || existing === null) cur[step] = typeof next === "number" ? [] : {};
    cur = cur[step] as Record<string | number, unknown>;
  });
}

const ops = Object.keys(OPERATIONS) as OperationName[];
const pathsByOp = new Map(ops.map((op) => [op, stringFieldPaths(OPERATIONS[op].input)]));
const describePath = (p: FieldPath) => p.map((s) => (s === KEY ? "<key>" : String(s))).join(".");

/** One generated case: a verb and one way (or several) of breaking its input. */
export const hostileCase: fc.Arbitrary<HostileCase> = fc.constantFrom(...ops).chain((op) => {
  const base = (f: Fixture) => clone(BASES[op]?.(f) ?? {});
  const paths = pathsByOp.get(op) ?? [];
  const pathArb = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant<FieldPath>(["unknown"]);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(pathArb, hostileString)
        .map(([p, s]) => ({ op, label: `${describePath(p)} = ${JSON.stringify(s).slice(0, 60)}`, build: (f: Fixture) => withValue(base(f), p, s) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(pathArb, wrongType)
        .map(([p, v]) => ({ op, label: `${describePath(p)} = ${JSON.stringify(v)}`, build: (f: Fixture) => withValue(base(f), p, v) })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.array(hostileString, { minLength: 1, maxLength: 40 }), fc.boolean()).map(([keys, nested]) => ({
        op,
        label: `${keys.length} unknown keys${nested ? " (nested)" : ""}`,
        build: (f: Fixture) => withUnknownKeys(base(f), keys, nested),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(pathArb, hostileString), { minLength: 2, maxLength: 8 })
        .map((edits) => ({ op, label: `${edits.length} fields broken`, build: (f: Fixture) => edits.reduce((b, [p, s]) => withValue(b, p, s), base(f)) })),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ op, label: `whole body ${JSON.stringify(v).slice(0, 40)}`, build: () => v })) },
  );
});

function withValue(input: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  setAt(input, path, value);
  return input;
}

function withUnknownKeys(input: Record<string, unknown>, keys: string[], nested: boolean): Record<string, unknown> {
  const target = nested ? ((input.outcome as Record<string, unknown> | undefined) ?? input) : input;
  keys.forEach((k, i) => {
    target[`${k}${i}`] = i;
  });
  return input;
}
