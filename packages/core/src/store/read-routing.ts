/**
 * Where each operation reads, when `CAIRN_READ_DATABASE_URL` names a replica (SPEC §35,
 * ADR 0085). `replica`: a read whose answer may be seconds old — search, lists, export,
 * runs, feeds — so a person who reloads sees it a moment later. `primary`: everything that
 * writes, and every read that must show the caller's own last write (an artifact by id
 * right after its create, the card a waiter reads for the decision, tokens, teams,
 * policies and settings just changed, the signing keys a verifier trusts, the database
 * checks of status and doctor). The share page (`/s/:token`) and every link page read
 * through the link context, which is always the primary.
 *
 * Every operation of the registry is in this table, and only reads may name the replica:
 * a test holds both, so a new operation cannot be routed by accident.
 */
export type ReadFrom = "primary" | "replica";

export const READ_ROUTING = {
  // Writes: the primary, always.
  receipt_create: "primary",
  artifact_create: "primary",
  artifact_retain: "primary",
  artifact_assign: "primary",
  artifact_acknowledge: "primary",
  user_create: "primary",
  token_create: "primary",
  token_revoke: "primary",
  team_create: "primary",
  team_member_add: "primary",
  team_member_remove: "primary",
  run_create: "primary",
  run_append_spans: "primary",
  run_close: "primary",
  run_delete: "primary",
  drops_dismiss: "primary",
  policy_set: "primary",
  subscription_create: "primary",
  subscription_delete: "primary",
  subscription_enable: "primary",
  subscription_redeliver: "primary",
  subscription_recover: "primary",
  subscription_test: "primary",
  subscription_rotate_secret: "primary",
  keys_rotate: "primary",
  signin_link_create: "primary",
  channel_create: "primary",
  channel_delete: "primary",
  channel_test: "primary",
  notifications_set: "primary",
  feed_key_rotate: "primary",
  artifact_transfer: "primary",
  comment_create: "primary",
  comment_delete: "primary",
  artifact_decide: "primary",
  team_invitation_accept: "primary",
  team_invitation_decline: "primary",
  team_leave: "primary",
  team_block: "primary",
  team_unblock: "primary",

  // Reads that must see the caller's own last write.
  artifact_read: "primary", // by id, right after the create that returned the id
  artifact_a2ui: "primary", // the card a waiter reads for the decision
  me: "primary",
  token_list: "primary", // a revoked token must show revoked at once
  team_read: "primary", // a member just added
  policy_get: "primary", // the policy just set
  subscription_read: "primary", // by id, right after create
  keys_list: "primary", // a verifier must trust the key that signed a moment ago
  receipt_verify: "primary",
  notifications_get: "primary", // the settings just changed
  comment_list: "primary", // the comment just written
  decision_wait: "primary", // the decision a waiter reads must be the one just given
  team_invitation_list: "primary", // an invitation just sent or answered
  doctor: "primary", // checks the database that serves writes
  status: "primary",

  // Reads that may be seconds old.
  artifact_search: "replica",
  artifact_export: "replica",
  run_read: "replica",
  run_list: "replica",
  drops_list: "replica",
  inbox_list: "replica",
  outcomes_list: "replica",
  subscription_list: "replica",
  subscription_deliveries: "replica",
  channel_list: "replica",
  channel_deliveries: "replica",
} as const satisfies Record<string, ReadFrom>;

export type RoutedOperation = keyof typeof READ_ROUTING;

/** Unknown names read from the primary: a missing row never sends a write to a replica. */
export function readsFrom(operation: string): ReadFrom {
  return (READ_ROUTING as Record<string, ReadFrom>)[operation] ?? "primary";
}
