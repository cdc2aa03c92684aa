import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import type { Outcome, Scenario, Step } from "./types.js";

const long = (n: number) => "p".repeat(n);
// A GitHub token shape the secret scanner knows; assembled so the source holds no token literal.
const ghp = ["ghp_", "Pa9Ri7Ty5Ww3Xx1Zz8Qq", "6Nn4Mm2Ll0Kk9Jj7"].join("");
const MISSING = "art_00000000000000000000000000";
// A run resource by form: evidence links are checked by form, never fetched or looked up.
const RUN_LINK = "mcp://cairn/runs/run_01jd8x3q5v7w9y2b4c6d8f0g1h";

const value = (o: Outcome) => (o.ok ? (o.value as Record<string, any>) : {});
const receipt = (input: unknown): Step => ({ operation: "receipt_create", input });
const items = (n: number) => (o: Outcome) => (value(o).items?.length === n ? null : `listed ${value(o).items?.length} items, expected ${n}`);

const team = (name = "t-$actor"): Step => ({ operation: "team_create", input: { name } });
const run = (): Step => ({ operation: "run_create", input: { name: "nightly" } });
const sub = (): Step => ({ operation: "subscription_create", input: { url: HOOK, events: ["artifact.created"] } });
// Loopback and a closed port: a row never sends traffic anywhere, even if a worker tries.
const HOOK = "http://127.0.0.1:9/cairn";
const chn = (): Step => ({ operation: "channel_create", input: { kind: "slack", target: "http://127.0.0.1:9/services/T0/B0/parity" } });
const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
};
const SPAN = { span_id: "s1", name: "build", start_time: "2026-11-01T08:00:00.000Z", end_time: "2026-11-01T08:05:00.000Z" };

/** Every other operation, at least once each (the completeness test holds the table to that). */
const OPERATION_SCENARIOS: Scenario[] = [
  {
    name: "plain artifact",
    expect: "ok",
    step: { operation: "artifact_create", input: { title: "A note", body: "# Notes\n\nPlain markdown.", tags: ["notes"] } },
  },
  {
    name: "export by tag",
    expect: "ok",
    check: items(1),
    setup: [receipt(minimalReceipt({ learned: "to export", tags: ["exported"] })), receipt(minimalReceipt({ learned: "kept here" }))],
    step: { operation: "artifact_export", input: { tag: "exported" } },
  },
  {
    name: "retain",
    expect: "ok",
    check: (o) => (value(o).retained === true && value(o).expires_at === null ? null : "is not retained"),
    setup: [receipt(minimalReceipt({ learned: "worth keeping" }))],
    step: { operation: "artifact_retain", input: { id: "$0.id" } },
  },
  {
    name: "a receipt as A2UI",
    expect: "ok",
    check: (o) => (o.ok && Array.isArray(o.value) && o.value.length === 3 ? null : "is not three A2UI messages"),
    setup: [receipt(minimalReceipt({ learned: "shown as a2ui" }))],
    step: { operation: "artifact_a2ui", input: { id: "$0.id" } },
  },
  { name: "A2UI of a missing id", expect: "not_found", step: { operation: "artifact_a2ui", input: { id: MISSING } } },
  { name: "retain a missing id", expect: "not_found", step: { operation: "artifact_retain", input: { id: MISSING } } },
  { name: "who am I", expect: "ok", step: { operation: "me", input: {} } },
  { name: "a user who is not an administrator cannot create users", expect: "forbidden", step: { operation: "user_create", input: { name: "u-$actor" } } },
  { name: "mint an agent token", expect: "ok", step: { operation: "token_create", input: { name: "ci", kind: "agent" } } },
  {
    name: "list tokens",
    expect: "ok",
    check: items(2),
    setup: [{ operation: "token_create", input: { name: "ci", kind: "agent" } }],
    step: { operation: "token_list", input: {} },
  },
  {
    name: "revoke a token",
    expect: "ok",
    check: (o) => (value(o).revoked_at ? null : "is not revoked"),
    setup: [{ operation: "token_create", input: { name: "ci", kind: "agent" } }],
    step: { operation: "token_revoke", input: { id: "$0.id" } },
  },
  {
    name: "move a receipt to a team",
    expect: "ok",
    check: (o) => (value(o).owner?.startsWith("team:t-") ? null : "did not move"),
    setup: [team(), receipt(minimalReceipt({ learned: "handed over" }))],
    step: { operation: "artifact_transfer", input: { id: "$1.id", owner: "team:t-$actor" } },
  },
  {
    name: "move a receipt to a team you are not in",
    expect: "forbidden",
    other: true,
    setup: [{ ...team("t-$other"), as: "other" }, receipt(minimalReceipt({ learned: "kept" }))],
    step: { operation: "artifact_transfer", input: { id: "$1.id", owner: "team:t-$other" } },
  },
  {
    name: "comment on a receipt",
    expect: "ok",
    check: (o) => (value(o).body === "Checked; it holds." && value(o).deleted === null ? null : "is not the comment written"),
    setup: [receipt(minimalReceipt({ learned: "to discuss" }))],
    step: { operation: "comment_create", input: { id: "$0.id", body: "Checked; it holds." } },
  },
  {
    name: "comment with a secret in it",
    expect: "validation_failed",
    setup: [receipt(minimalReceipt({ learned: "to discuss" }))],
    step: { operation: "comment_create", input: { id: "$0.id", body: "key ghp_abcdefghijklmnopqrstuvwxyz0123456789" } },
  },
  {
    name: "list a receipt's comments",
    expect: "ok",
    check: items(1),
    setup: [receipt(minimalReceipt({ learned: "to discuss" })), { operation: "comment_create", input: { id: "$0.id", body: "first" } }],
    step: { operation: "comment_list", input: { id: "$0.id" } },
  },
  {
    name: "delete a comment, leaving a tombstone",
    expect: "ok",
    check: (o) => (value(o).body === null && value(o).deleted ? null : "is not a tombstone"),
    setup: [receipt(minimalReceipt({ learned: "to discuss" })), { operation: "comment_create", input: { id: "$0.id", body: "a slip" } }],
    step: { operation: "comment_delete", input: { id: "$0.id", cid: "$1.id" } },
  },
  {
    name: "search by a date people type",
    expect: "ok",
    check: items(1),
    setup: [receipt(minimalReceipt({ learned: "typed dates", tags: ["typed-date"] }))],
    step: { operation: "artifact_search", input: { tag: "typed-date", created_after: "2d" } },
  },
  {
    name: "list runs since yesterday",
    expect: "ok",
    check: items(1),
    setup: [run()],
    step: { operation: "run_list", input: { since: "yesterday" } },
  },
  { name: "a date nobody can resolve", expect: "validation_failed", step: { operation: "artifact_search", input: { created_after: "next week" } } },
  { name: "create a team", expect: "ok", step: team() },
  { name: "a team name that is taken", expect: "validation_failed", setup: [team()], step: team() },
  { name: "read a team", expect: "ok", setup: [team()], step: { operation: "team_read", input: { name: "t-$actor" } } },
  {
    name: "add a team member",
    expect: "ok",
    other: true,
    setup: [team()],
    step: { operation: "team_member_add", input: { name: "t-$actor", user: "$other" } },
  },
  {
    name: "list team invitations",
    expect: "ok",
    other: true,
    check: items(1),
    setup: [
      { ...team("t-$other"), as: "other" },
      { operation: "team_member_add", input: { name: "t-$other", user: "$actor" }, as: "other" },
    ],
    step: { operation: "team_invitation_list", input: {} },
  },
  {
    name: "accept a team invitation",
    expect: "ok",
    other: true,
    check: (o) => (value(o).members?.length === 2 ? null : "did not join"),
    setup: [
      { ...team("t-$other"), as: "other" },
      { operation: "team_member_add", input: { name: "t-$other", user: "$actor" }, as: "other" },
    ],
    step: { operation: "team_invitation_accept", input: { name: "t-$other" } },
  },
  { name: "accept an invitation nobody sent", expect: "not_found", step: { operation: "team_invitation_accept", input: { name: "t-$actor" } } },
  {
    name: "decline a team invitation",
    expect: "ok",
    other: true,
    setup: [
      { ...team("t-$other"), as: "other" },
      { operation: "team_member_add", input: { name: "t-$other", user: "$actor" }, as: "other" },
    ],
    step: { operation: "team_invitation_decline", input: { name: "t-$other" } },
  },
  {
    name: "leave a team and block it",
    expect: "ok",
    other: true,
    check: (o) => (value(o).blocked === true ? null : "is not blocked"),
    setup: [
      { ...team("t-$other"), as: "other" },
      { operation: "team_member_add", input: { name: "t-$other", user: "$actor" }, as: "other" },
      { operation: "team_invitation_accept", input: { name: "t-$other" } },
    ],
    step: { operation: "team_leave", input: { name: "t-$other", block: true } },
  },
  { name: "block a team", expect: "ok", step: { operation: "team_block", input: { name: "t-$actor" } } },
  {
    name: "unblock a team",
    expect: "ok",
    setup: [{ operation: "team_block", input: { name: "t-$actor" } }],
    step: { operation: "team_unblock", input: { name: "t-$actor" } },
  },
  {
    name: "remove a team member",
    expect: "ok",
    other: true,
    setup: [team(), { operation: "team_member_add", input: { name: "t-$actor", user: "$other" } }],
    step: { operation: "team_member_remove", input: { name: "t-$actor", user: "$other" } },
  },
  { name: "start a run", expect: "ok", step: run() },
  { name: "read a run", expect: "ok", setup: [run()], step: { operation: "run_read", input: { run_id: "$0.id" } } },
  { name: "append spans", expect: "ok", setup: [run()], step: { operation: "run_append_spans", input: { run_id: "$0.id", spans: [SPAN] } } },
  {
    name: "append spans to a closed run",
    expect: "validation_failed",
    setup: [run(), { operation: "run_close", input: { run_id: "$0.id" } }],
    step: { operation: "run_append_spans", input: { run_id: "$0.id", spans: [SPAN] } },
  },
  { name: "close a run", expect: "ok", setup: [run()], step: { operation: "run_close", input: { run_id: "$0.id" } } },
  { name: "list runs", expect: "ok", check: items(2), setup: [run(), run()], step: { operation: "run_list", input: {} } },
  {
    name: "list runs by name",
    expect: "ok",
    check: items(1),
    setup: [run(), { operation: "run_create", input: { name: "deploy web" } }],
    step: { operation: "run_list", input: { q: "DEPLOY" } },
  },
  {
    name: "list runs by state and error",
    expect: "ok",
    check: items(1),
    setup: [run(), run(), { operation: "run_close", input: { run_id: "$1.id" } }],
    step: { operation: "run_list", input: { status: "ended", error: "false" } },
  },
  { name: "read a run's spans a page at a time", expect: "ok", setup: [run()], step: { operation: "run_read", input: { run_id: "$0.id", spans_limit: 1 } } },
  { name: "delete a run", expect: "ok", setup: [run()], step: { operation: "run_delete", input: { run_id: "$0.id" } } },
  { name: "delete a missing run", expect: "not_found", step: { operation: "run_delete", input: { run_id: "run_00000000000000000000000000" } } },
  { name: "list runs of a team you are not in", expect: "forbidden", step: { operation: "run_list", input: { owner: "team:not-a-member" } } },
  { name: "a run as evidence", expect: "ok", step: receipt(minimalReceipt({ evidence: [{ label: "the trace", url: RUN_LINK }] })) },
  {
    name: "an mcp://cairn/ link that names neither an artifact nor a run",
    expect: "validation_failed",
    step: receipt(minimalReceipt({ evidence: [{ label: "the trace", url: "mcp://cairn/traces/4bf92f3577b34da6a3ce929d0e0e4736" }] })),
  },
  {
    name: "list drops",
    expect: "ok",
    check: items(1),
    setup: [{ operation: "receipt_create", input: minimalReceipt({ changed: "Fixed" }), refused: true }],
    step: { operation: "drops_list", input: {} },
  },
  {
    name: "dismiss the drops: they stay listed, marked dismissed",
    expect: "ok",
    check: (o) => (value(o).dismissed === 1 ? null : "dismissed no drop"),
    setup: [{ operation: "receipt_create", input: minimalReceipt({ changed: "Fixed" }), refused: true }],
    step: { operation: "drops_dismiss", input: { before: "2099-12-31T00:00:00Z" } },
  },
  {
    name: "doctor warns about a fixable drop",
    expect: "ok",
    setup: [{ operation: "receipt_create", input: minimalReceipt({ changed: "Fixed" }), refused: true }],
    step: { operation: "doctor", input: {} },
  },
  { name: "status", expect: "ok", setup: [receipt(minimalReceipt({ learned: "the last one" }))], step: { operation: "status", input: {} } },
  { name: "read the policy", expect: "ok", step: { operation: "policy_get", input: {} } },
  {
    name: "change the policy",
    expect: "ok",
    check: (o) => (value(o).require_evidence === true ? null : "did not turn require_evidence on"),
    step: { operation: "policy_set", input: { require_evidence: true } },
  },
  { name: "read a policy of a team you are not in", expect: "forbidden", step: { operation: "policy_get", input: { owner: "team:not-a-member" } } },
  {
    name: "subscribe a URL",
    expect: "ok",
    check: (o) => (String(value(o).secret).startsWith("whsec_") ? null : "shows no whsec_ secret"),
    step: sub(),
  },
  { name: "subscribe to an ftp URL", expect: "validation_failed", step: { operation: "subscription_create", input: { url: "ftp://127.0.0.1/x" } } },
  { name: "list subscriptions", expect: "ok", check: items(1), setup: [sub()], step: { operation: "subscription_list", input: {} } },
  { name: "read a subscription", expect: "ok", setup: [sub()], step: { operation: "subscription_read", input: { id: "$0.id" } } },
  { name: "delete a subscription", expect: "ok", setup: [sub()], step: { operation: "subscription_delete", input: { id: "$0.id" } } },
  { name: "re-enable a subscription", expect: "ok", setup: [sub()], step: { operation: "subscription_enable", input: { id: "$0.id" } } },
  { name: "list delivery attempts", expect: "ok", check: items(0), setup: [sub()], step: { operation: "subscription_deliveries", input: { id: "$0.id" } } },
  {
    name: "redeliver an event that does not exist",
    expect: "not_found",
    setup: [sub()],
    step: { operation: "subscription_redeliver", input: { id: "$0.id", event_id: "evt_00000000000000000000000000" } },
  },
  {
    name: "recover since a time",
    expect: "ok",
    check: (o) => (value(o).queued === 0 ? null : "queued events of another owner"),
    setup: [sub()],
    step: { operation: "subscription_recover", input: { id: "$0.id", since: new Date(Date.now() - 3_600_000).toISOString() } },
  },
  // SPEC §19: the operator's verbs on a subscription.
  {
    name: "send a test event",
    expect: "ok",
    check: (o) => (value(o).queued === 1 && String(value(o).event_id).startsWith("evt_") ? null : "queued no webhook.test event"),
    setup: [sub()],
    step: { operation: "subscription_test", input: { id: "$0.id" } },
  },
  {
    name: "rotate a subscription's signing secret",
    expect: "ok",
    check: (o) => (String(value(o).secret).startsWith("whsec_") && value(o).previous_secret_expires_at ? null : "shows no new secret and overlap"),
    setup: [sub()],
    step: { operation: "subscription_rotate_secret", input: { id: "$0.id" } },
  },
  {
    name: "list each event's delivery state",
    expect: "ok",
    check: items(0),
    setup: [sub()],
    step: { operation: "subscription_deliveries", input: { id: "$0.id", view: "events" } },
  },
  {
    name: "list the signing keys",
    expect: "ok",
    check: (o) => (value(o).keys?.length > 0 ? null : "lists no key"),
    step: { operation: "keys_list", input: {} },
  },
  { name: "rotate the signing key without being an administrator", expect: "forbidden", step: { operation: "keys_rotate", input: {} } },
  {
    name: "verify a stored receipt",
    expect: "ok",
    check: (o) => (value(o).valid === true ? null : "did not verify"),
    setup: [receipt(minimalReceipt({ learned: "to be verified" }))],
    step: { operation: "receipt_verify", input: { id: "$0.id" } },
  },
  // The on-ramp (SPEC §22): a sign-in link for the web, and the words a newcomer meets on a mistake.
  {
    name: "a one-time sign-in link",
    expect: "ok",
    check: (o) => (/\/signin\/link\/[A-Za-z0-9_-]{43}$/.test(value(o).url) && value(o).next === "/" ? null : "is not a sign-in link to the bin"),
    step: { operation: "signin_link_create", input: {} },
  },
  { name: "a sign-in link to an artifact that is not there", expect: "not_found", step: { operation: "signin_link_create", input: { id: MISSING } } },
  {
    name: "a misspelt field names the nearest known one",
    expect: "validation_failed",
    drop: "invalid",
    check: (o) => (JSON.stringify(o).includes("is not a known field; did you mean human_action?") ? null : "suggests nothing"),
    step: { operation: "receipt_create", input: { ...minimalReceipt({ human_action: undefined }), human_actoin: "Nothing" } },
  },
  {
    name: "a day that is not in the calendar",
    expect: "validation_failed",
    drop: "invalid",
    check: (o) => (JSON.stringify(o).includes("2026-02-30 is not a day in the calendar") ? null : "does not say the day does not exist"),
    step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "pending", measure_at: "2026-02-30" } }) },
  },
];

/** The one table. A new scenario is one row. */
export const SCENARIOS: Scenario[] = [
  { name: "full receipt", expect: "ok", step: { operation: "receipt_create", input: fullReceipt() } },
  { name: "minimal receipt", expect: "ok", step: { operation: "receipt_create", input: minimalReceipt() } },

  // Each way the static gates refuse a receipt.
  {
    name: "missing required field",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ learned: undefined }) },
  },
  { name: "empty learned", expect: "validation_failed", drop: "invalid", step: { operation: "receipt_create", input: minimalReceipt({ learned: "   " }) } },
  {
    name: "wrong type",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ learned: 42, evidence: "none" }) },
  },
  {
    name: "text over its limit",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ before: long(4001) }) },
  },
  {
    name: "title over its limit",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ title: long(201) }) },
  },
  {
    name: "too many evidence links",
    expect: "validation_failed",
    drop: "invalid",
    step: {
      operation: "receipt_create",
      input: minimalReceipt({ evidence: Array.from({ length: 51 }, (_, i) => ({ label: `e${i}`, url: "https://e.example/" })) }),
    },
  },
  { name: "bad tag", expect: "validation_failed", drop: "invalid", step: { operation: "receipt_create", input: minimalReceipt({ tags: ["two words"] }) } },
  {
    name: "unknown outcome status",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "done" } }) },
  },
  {
    name: "measured without summary",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "measured" } }) },
  },
  {
    name: "pending without date",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "pending" } }) },
  },
  {
    name: "date that is not ISO 8601",
    expect: "validation_failed",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "pending", measure_at: "next Tuesday" } }) },
  },
  // Years 0001–9999 once converted to UTC: each of these is another year there (a 422 and a drop, never a 500).
  ...["0000-01-01", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-12:00"].map(
    (measure_at): Scenario => ({
      name: `date outside years 0001-9999 in UTC (${measure_at})`,
      expect: "validation_failed",
      drop: "invalid",
      check: (o) => (!o.ok && o.error.issues?.[0]?.field === "outcome.measure_at" ? null : "does not name outcome.measure_at"),
      step: { operation: "receipt_create", input: minimalReceipt({ outcome: { status: "pending", measure_at } }) },
    }),
  ),
  {
    name: "unsafe evidence link",
    expect: "validation_failed",
    drop: "unsafe-link",
    step: { operation: "receipt_create", input: minimalReceipt({ evidence: [{ label: "x", url: "javascript:alert(1)" }] }) },
  },
  { name: "too thin", expect: "validation_failed", drop: "too-thin", step: { operation: "receipt_create", input: minimalReceipt({ changed: "Fixed" }) } },
  { name: "unknown field", expect: "validation_failed", drop: "invalid", step: { operation: "receipt_create", input: minimalReceipt({ learnt: "typo" }) } },
  { name: "not an object", expect: "validation_failed", drop: "invalid", step: { operation: "receipt_create", input: [minimalReceipt()] } },
  {
    name: "unknown schema",
    expect: "unknown_schema",
    drop: "unknown-schema",
    step: { operation: "receipt_create", input: minimalReceipt({ schema: "cairn.receipt/v9" }) },
  },

  // The gates that need the server's state.
  {
    name: "owner not yours",
    expect: "forbidden",
    drop: "invalid",
    step: { operation: "receipt_create", input: minimalReceipt({ owner: "team:not-a-member" }) },
  },
  {
    name: "follows a missing receipt",
    expect: "validation_failed",
    drop: "foreign-link",
    step: { operation: "receipt_create", input: minimalReceipt({ follows: MISSING }) },
  },
  {
    name: "follows an earlier receipt",
    expect: "ok",
    check: (o) => (value(o).follows?.id ? null : "shows no follows link"),
    setup: [receipt(minimalReceipt({ learned: "the first half" }))],
    step: { operation: "receipt_create", input: fullReceipt({ learned: "the second half", follows: "$0.id" }) },
  },
  {
    name: "duplicate",
    expect: "duplicate",
    drop: "duplicate",
    setup: [receipt(minimalReceipt({ learned: "said once" }))],
    step: { operation: "receipt_create", input: minimalReceipt({ learned: "said once" }) },
  },

  // Secrets and policies.
  {
    name: "secret redacted",
    expect: "ok",
    check: (o) => (value(o).redactions?.length > 0 && !JSON.stringify(value(o)).includes(ghp) ? null : "did not redact the token"),
    step: { operation: "receipt_create", input: fullReceipt({ before: `The deploy used ${ghp} from a chat.`, tags: ["export", ghp] }) },
  },
  {
    name: "secret blocked by policy",
    expect: "validation_failed",
    drop: "secret-detected",
    policy: { secrets: "block" },
    step: { operation: "receipt_create", input: minimalReceipt({ before: `It was ${ghp}.` }) },
  },
  {
    name: "secret in a refused receipt's title",
    expect: "validation_failed",
    drop: "invalid",
    check: (o) => (!o.ok && o.error.drop?.title_withheld ? null : "did not withhold the title"),
    step: { operation: "receipt_create", input: minimalReceipt({ title: `Rotated ${ghp}`, learned: "" }) },
  },
  {
    name: "policy veto",
    expect: "validation_failed",
    drop: "policy-vetoed",
    policy: { require_evidence: true },
    step: { operation: "receipt_create", input: minimalReceipt() },
  },

  // Reading.
  { name: "read", expect: "ok", setup: [receipt(fullReceipt({ learned: "to be read" }))], step: { operation: "artifact_read", input: { id: "$0.id" } } },
  { name: "read a missing id", expect: "not_found", step: { operation: "artifact_read", input: { id: MISSING } } },
  {
    name: "search",
    expect: "ok",
    check: items(1),
    setup: [receipt(minimalReceipt({ learned: "The parity flamingo is pink" })), receipt(minimalReceipt({ learned: "Unrelated" }))],
    step: { operation: "artifact_search", input: { q: "flamingo", tag: "receipt" } },
  },
  {
    name: "search by tag",
    expect: "ok",
    check: items(2),
    setup: [
      receipt(minimalReceipt({ learned: "first", tags: ["nightly"] })),
      receipt(minimalReceipt({ learned: "second" })),
      receipt(fullReceipt({ tags: ["nightly"] })),
    ],
    step: { operation: "artifact_search", input: { tag: "nightly" } },
  },
  {
    name: "read a receipt that asks a person for something",
    expect: "ok",
    check: (o) => (Array.isArray(value(o).acknowledgements) && value(o).acknowledgements.length === 0 ? null : "shows no empty acknowledgements"),
    setup: [receipt(fullReceipt({ learned: "asks a person", human_action: "Approve the retry budget." }))],
    step: { operation: "artifact_read", input: { id: "$0.id" } },
  },
  {
    name: "acknowledge a receipt that asks a person",
    expect: "ok",
    check: (o) => (value(o).acknowledgements?.length === 1 ? null : "lists no acknowledgement"),
    setup: [receipt(minimalReceipt({ learned: "asks for an ack", human_action: "Approve the retry budget." }))],
    step: { operation: "artifact_acknowledge", input: { id: "$0.id", note: "Approved" } },
  },
  {
    name: "acknowledge a receipt that asks nothing",
    expect: "validation_failed",
    setup: [receipt(minimalReceipt({ learned: "asks nothing" }))],
    step: { operation: "artifact_acknowledge", input: { id: "$0.id" } },
  },
  // SPEC §32: a receipt asks with fixed answers.
  {
    name: "leave a receipt that asks",
    expect: "ok",
    check: (o) => (value(o).ask?.options?.length === 2 && value(o).ask?.comment === "optional" && value(o).decision === null ? null : "carries no open ask"),
    step: receipt(minimalReceipt({ learned: "asks a choice", human_action: "Approve the migration?", ask: ASK })),
  },
  {
    name: "an ask with a repeated option id",
    expect: "validation_failed",
    check: (o) => (!o.ok && o.error.issues?.[0]?.field === "ask.options.1.id" ? null : "does not name ask.options.1.id"),
    step: receipt(minimalReceipt({ learned: "asks badly", human_action: "Approve?", ask: { options: [ASK.options[0], ASK.options[0]] } })),
  },
  {
    name: "answer an ask",
    expect: "ok",
    check: (o) =>
      value(o).decision?.state === "decided" && value(o).decision?.option === "approve" && value(o).acknowledgements?.length === 1 ? null : "is not decided",
    setup: [receipt(minimalReceipt({ learned: "asks to approve", human_action: "Approve the migration?", ask: ASK }))],
    step: { operation: "artifact_decide", input: { id: "$0.id", option: "approve", comment: "Go" } },
  },
  {
    name: "a different answer after the first",
    expect: "already_decided",
    setup: [
      receipt(minimalReceipt({ learned: "answered first", human_action: "Approve the migration?", ask: ASK })),
      { operation: "artifact_decide", input: { id: "$0.id", option: "approve" } },
    ],
    step: { operation: "artifact_decide", input: { id: "$0.id", option: "reject" } },
  },
  {
    name: "an answer that is not an option",
    expect: "validation_failed",
    setup: [receipt(minimalReceipt({ learned: "answered badly", human_action: "Approve the migration?", ask: ASK }))],
    step: { operation: "artifact_decide", input: { id: "$0.id", option: "maybe" } },
  },
  {
    name: "wait on an answered ask",
    expect: "ok",
    check: (o) => (value(o).state === "decided" && value(o).decision?.label === "Reject" ? null : "does not read as decided"),
    setup: [
      receipt(minimalReceipt({ learned: "answered to wait on", human_action: "Approve the migration?", ask: ASK })),
      { operation: "artifact_decide", input: { id: "$0.id", option: "reject" } },
    ],
    step: { operation: "decision_wait", input: { id: "$0.id", wait: 1 } },
  },
  {
    name: "an open ask, read without waiting",
    expect: "ok",
    check: (o) => (value(o).state === "open" && value(o).decision === null ? null : "does not read as open"),
    setup: [receipt(minimalReceipt({ learned: "open to read", human_action: "Approve the migration?", ask: ASK }))],
    step: { operation: "decision_wait", input: { id: "$0.id" } },
  },
  {
    name: "the inbox lists what is acknowledged",
    expect: "ok",
    check: items(1),
    setup: [
      receipt(minimalReceipt({ learned: "acked already", human_action: "Rotate the key." })),
      { operation: "artifact_acknowledge", input: { id: "$0.id" } },
    ],
    step: { operation: "inbox_list", input: { state: "acknowledged" } },
  },
  {
    name: "outcomes overdue",
    expect: "ok",
    check: items(1),
    setup: [receipt(minimalReceipt({ learned: "due long ago", outcome: { status: "pending", measure_at: "2020-01-01" } }))],
    step: { operation: "outcomes_list", input: {} },
  },
  // SPEC §20: the assignee, and API objects that carry stored values (never "You need to do: …").
  {
    name: "assign a receipt to yourself",
    expect: "ok",
    check: (o) => (typeof value(o).assignee === "string" ? null : "names no assignee"),
    setup: [receipt(minimalReceipt({ learned: "to assign", human_action: "Rotate the key." }))],
    step: { operation: "artifact_assign", input: { id: "$0.id", assignee: "$actor" } },
  },
  {
    name: "assign nobody",
    expect: "ok",
    check: (o) => (value(o).assignee === null ? null : "still names an assignee"),
    setup: [receipt(minimalReceipt({ learned: "assigned at create", assignee: "$actor" }))],
    step: { operation: "artifact_assign", input: { id: "$0.id", assignee: null } },
  },
  {
    name: "assign a user who cannot read it",
    expect: "validation_failed",
    other: true,
    setup: [receipt(minimalReceipt({ learned: "not theirs" }))],
    step: { operation: "artifact_assign", input: { id: "$0.id", assignee: "$other" } },
  },
  {
    name: "the inbox of what is assigned to me carries human_action as stored",
    expect: "ok",
    check: (o) => {
      const item = value(o).items?.[0];
      return item?.human_action === "Rotate the key." && item.human_action === item.receipt?.metadata?.human_action && item.assignee
        ? null
        : `human_action ${JSON.stringify(item?.human_action)} is not the stored value`;
    },
    setup: [
      receipt(minimalReceipt({ learned: "mine to do", human_action: "Rotate the key.", assignee: "$actor" })),
      receipt(minimalReceipt({ learned: "nobody's", human_action: "Rotate the other key." })),
    ],
    step: { operation: "inbox_list", input: { assignee: "me" } },
  },
  {
    name: "an overdue outcome carries human_action as stored",
    expect: "ok",
    check: (o) => (value(o).items?.[0]?.human_action === "Measure the error rate." ? null : "human_action is not the stored value"),
    setup: [receipt(minimalReceipt({ learned: "due", human_action: "Measure the error rate.", outcome: { status: "pending", measure_at: "2020-01-01" } }))],
    step: { operation: "outcomes_list", input: {} },
  },
  // SPEC §27: a person's channels and triggers (loopback, closed port: nothing is reached).
  {
    name: "add a Slack channel: its URL is shown masked",
    expect: "ok",
    check: (o) => (value(o).state === "active" && !String(value(o).target).includes("parity") ? null : "not active, or the URL is not masked"),
    step: chn(),
  },
  {
    name: "add a channel whose target is not a URL",
    expect: "validation_failed",
    step: { operation: "channel_create", input: { kind: "ntfy", target: "not a url" } },
  },
  { name: "list my channels", expect: "ok", check: items(1), setup: [chn()], step: { operation: "channel_list", input: {} } },
  { name: "remove a channel", expect: "ok", setup: [chn()], step: { operation: "channel_delete", input: { id: "$0.id" } } },
  { name: "send a test notification", expect: "ok", setup: [chn()], step: { operation: "channel_test", input: { id: "$0.id" } } },
  { name: "list a channel's attempts", expect: "ok", setup: [chn()], step: { operation: "channel_deliveries", input: { id: "$0.id" } } },
  {
    name: "read my notification settings",
    expect: "ok",
    check: (o) => (value(o).triggers?.digest === false && value(o).remind_after === 86400 ? null : "not the defaults"),
    step: { operation: "notifications_get", input: {} },
  },
  {
    name: "switch the digest on",
    expect: "ok",
    check: (o) => (value(o).triggers?.digest === true && value(o).digest_hour === 7 ? null : "the digest was not switched on"),
    step: { operation: "notifications_set", input: { triggers: { digest: true }, digest_hour: 7 } },
  },
  { name: "a reminder sooner than a minute", expect: "validation_failed", step: { operation: "notifications_set", input: { remind_after: 59 } } },
  {
    name: "make a feed key",
    expect: "ok",
    check: (o) => (String(value(o).url).includes("/feeds/inbox.atom?key=cfk_") ? null : "no feed URL"),
    step: { operation: "feed_key_rotate", input: {} },
  },
  ...OPERATION_SCENARIOS,
];
