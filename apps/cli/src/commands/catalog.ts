import type { OperationName } from "@cairn/core";
import { assignCommand } from "./assign.js";
import { commentCommand, commentDeleteCommand, commentsCommand } from "./comment.js";
import { decideCommand, waitCommand } from "./decide.js";
import type { CliCommand } from "./define.js";
import { exportCommand } from "./export.js";
import { doctorCommand, dropsCommand, dropsDismissCommand, statusCommand } from "./health.js";
import { ackCommand, inboxCommand, outcomesCommand } from "./inbox.js";
import { keysListCommand, keysRotateCommand } from "./keys.js";
import {
  notifyAddCommand,
  notifyDeliveriesCommand,
  notifyFeedKeyCommand,
  notifyListCommand,
  notifyRemoveCommand,
  notifySettingsCommand,
  notifyTestCommand,
} from "./notify.js";
import { openCommand } from "./open.js";
import { policyGetCommand, policySetCommand } from "./policy.js";
import { readCommand } from "./read.js";
import { receiptCommand } from "./receipt.js";
import { retainCommand } from "./retain.js";
import { runCloseCommand, runDeleteCommand, runShowCommand, runSpansCommand, runStartCommand, runsCommand } from "./runs.js";
import { searchCommand } from "./search.js";
import {
  deliveriesCommand,
  subscribeCommand,
  subscriptionDeleteCommand,
  subscriptionEnableCommand,
  subscriptionRecoverCommand,
  subscriptionRedeliverCommand,
  subscriptionRotateSecretCommand,
  subscriptionShowCommand,
  subscriptionsCommand,
  subscriptionTestCommand,
} from "./subscriptions.js";
import {
  teamAcceptCommand,
  teamAddCommand,
  teamBlockCommand,
  teamCreateCommand,
  teamDeclineCommand,
  teamInvitationsCommand,
  teamLeaveCommand,
  teamRemoveCommand,
  teamShowCommand,
  teamUnblockCommand,
} from "./teams.js";
import { tokenCreateCommand, tokenListCommand, tokenRevokeCommand } from "./token.js";
import { transferCommand } from "./transfer.js";
import { userCreateCommand } from "./user.js";
import { verifyCommand } from "./verify.js";
import { whoamiCommand } from "./whoami.js";

/**
 * The CLI's spelling of core operations: a hand-written command. An operation without an
 * entry gets a generated command (`genericCommand`), so a new operation reaches the CLI
 * without an edit here; one core keeps off the CLI (`notOn.cli`) gets none. Order here is
 * the order of `cairn --help`; generated commands follow.
 */
export const CLI_COMMANDS: { readonly [N in OperationName]?: CliCommand<N> } = {
  receipt_create: receiptCommand,
  artifact_read: readCommand,
  artifact_search: searchCommand,
  artifact_export: exportCommand,
  artifact_retain: retainCommand,
  artifact_assign: assignCommand,
  artifact_transfer: transferCommand,
  comment_create: commentCommand,
  comment_list: commentsCommand,
  comment_delete: commentDeleteCommand,
  doctor: doctorCommand,
  status: statusCommand,
  drops_list: dropsCommand,
  drops_dismiss: dropsDismissCommand,
  policy_get: policyGetCommand,
  policy_set: policySetCommand,
  run_create: runStartCommand,
  run_append_spans: runSpansCommand,
  run_close: runCloseCommand,
  run_read: runShowCommand,
  run_list: runsCommand,
  run_delete: runDeleteCommand,
  me: whoamiCommand,
  user_create: userCreateCommand,
  token_create: tokenCreateCommand,
  token_list: tokenListCommand,
  token_revoke: tokenRevokeCommand,
  team_create: teamCreateCommand,
  team_read: teamShowCommand,
  team_member_add: teamAddCommand,
  team_member_remove: teamRemoveCommand,
  team_invitation_list: teamInvitationsCommand,
  team_invitation_accept: teamAcceptCommand,
  team_invitation_decline: teamDeclineCommand,
  team_leave: teamLeaveCommand,
  team_block: teamBlockCommand,
  team_unblock: teamUnblockCommand,
  receipt_verify: verifyCommand,
  keys_list: keysListCommand,
  keys_rotate: keysRotateCommand,
  subscription_create: subscribeCommand,
  subscription_list: subscriptionsCommand,
  subscription_deliveries: deliveriesCommand,
  subscription_read: subscriptionShowCommand,
  subscription_delete: subscriptionDeleteCommand,
  subscription_enable: subscriptionEnableCommand,
  subscription_redeliver: subscriptionRedeliverCommand,
  subscription_recover: subscriptionRecoverCommand,
  subscription_test: subscriptionTestCommand,
  subscription_rotate_secret: subscriptionRotateSecretCommand,
  inbox_list: inboxCommand,
  artifact_acknowledge: ackCommand,
  artifact_decide: decideCommand,
  decision_wait: waitCommand,
  outcomes_list: outcomesCommand,
  signin_link_create: openCommand,
  channel_create: notifyAddCommand,
  channel_list: notifyListCommand,
  channel_test: notifyTestCommand,
  channel_delete: notifyRemoveCommand,
  channel_deliveries: notifyDeliveriesCommand,
  notifications_set: notifySettingsCommand,
  feed_key_rotate: notifyFeedKeyCommand,
};

/** Descriptions of the command groups (`cairn user …`). */
export const GROUPS: Readonly<Record<string, string>> = {
  user: "Manage users (administrators).",
  policy: "Read and change an owner's policy (`cairn policy set --help` lists its fields and their values).",
  token: "Mint, list and revoke bearer tokens for people and agents (one token per agent).",
  run: "Record runs and their spans; a span can name the receipt it produced.",
  team: "Teams own artifacts and runs together; members manage membership.",
  keys: "The server's Ed25519 signing keys: list the public ones, rotate (administrators).",
  subscription: "Manage one webhook subscription: show, delete, enable, redeliver, recover, test, rotate-secret.",
  notify: "Be told where you are: email, Slack and ntfy channels (add, list, test, remove, deliveries), settings, and your feed key.",
};
