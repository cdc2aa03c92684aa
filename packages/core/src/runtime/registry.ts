import type { z } from "zod";
import { ARTIFACT_OPERATIONS, ARTIFACT_TAG } from "../artifact/operations.js";
import { DECISION_OPERATIONS, DECISION_TAG } from "../decision/operations.js";
import { DROP_OPERATIONS, DROP_TAG } from "../drops/operations.js";
import { EVENT_OPERATIONS, EVENT_TAG } from "../events/operations.js";
import { HEALTH_OPERATIONS } from "../health/operations.js";
import { IDENTITY_OPERATIONS, IDENTITY_TAG } from "../identity/operations.js";
import { INBOX_OPERATIONS, INBOX_TAG } from "../inbox/operations.js";
import { NOTIFY_OPERATIONS, NOTIFY_TAG } from "../notify/operations.js";
import { defineApiTag } from "../operations/api-tags.js";
import type { Operation } from "../operations/define.js";
import { POLICY_OPERATIONS, POLICY_TAG } from "../policy/operations.js";
import { RECEIPT_OPERATIONS, RECEIPT_TAG } from "../receipt/operations.js";
import { SCHEMA_TAG } from "../receipt/registry.js";
import { RUN_OPERATIONS, RUN_TAG } from "../run/operations.js";
import { SESSION_OPERATIONS } from "../session/operations.js";
import { SIGNING_OPERATIONS, SIGNING_TAG } from "../signing/operations.js";
import { TEAM_OPERATIONS, TEAM_TAG } from "../team/operations.js";

/** An operation without a title is titled by its name in words: `team_member_add` → "Team member add". */
function titled<T extends Record<string, Operation>>(table: T): T {
  for (const [name, op] of Object.entries(table)) {
    if (op.title === "") op.title = name.charAt(0).toUpperCase() + name.slice(1).replaceAll("_", " ");
  }
  return table;
}

/**
 * Every verb, by name: each area owns its verbs in `<area>/operations.ts` and is spread
 * in here. The key is the operation's name on every surface. Order is the order of
 * listings (OpenAPI, MCP tools, parity).
 */
export const OPERATIONS = titled({
  ...RECEIPT_OPERATIONS,
  ...ARTIFACT_OPERATIONS,
  ...IDENTITY_OPERATIONS,
  ...TEAM_OPERATIONS,
  ...RUN_OPERATIONS,
  ...DROP_OPERATIONS,
  ...HEALTH_OPERATIONS,
  ...POLICY_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...DECISION_OPERATIONS,
  ...SIGNING_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...NOTIFY_OPERATIONS,
});

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]["input"]>;
export type OperationOutput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]["output"]>;

export const operationNames = () => Object.keys(OPERATIONS) as OperationName[];

/**
 * Every group of the API documentation (OpenAPI tags), in the order they are listed. Each
 * area declares its own next to its verbs; a surface names only these (`ApiTagName`), so
 * every group an integrator sees has a description. `Other` holds verbs not yet given one.
 */
export const API_TAGS = [
  RECEIPT_TAG,
  ARTIFACT_TAG,
  IDENTITY_TAG,
  TEAM_TAG,
  RUN_TAG,
  DROP_TAG,
  POLICY_TAG,
  EVENT_TAG,
  INBOX_TAG,
  DECISION_TAG,
  SIGNING_TAG,
  SCHEMA_TAG,
  NOTIFY_TAG,
  defineApiTag("Other", "Operations that have no group of their own yet."),
] as const;

export type ApiTagName = (typeof API_TAGS)[number]["name"];
