import { z } from "zod";
import { Provenance, ShareType } from "../artifact/schemas.js";
import { DropReceipt } from "../drops/schemas.js";

/**
 * The closed set of event types (SPEC §10). A subscription's `events` filter names any of
 * them; adding a type here makes every table keyed by EventType fail to compile until it
 * has its payload schema.
 */
export const EVENT_TYPES = [
  "artifact.created",
  "receipt.dropped",
  "receipt.measure_due",
  "receipt.acknowledged",
  "artifact.assigned",
  "artifact.transferred",
  "artifact.commented",
  "team.invited",
  "team.joined",
  "receipt.decided",
  "receipt.decision_expired",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const EventTypeSchema = z.enum(EVENT_TYPES).describe(`An event type: ${EVENT_TYPES.join(", ")}.`);

/**
 * `data` of artifact.created. The key order is the wire order and is frozen: the payload
 * of a non-receipt artifact stays byte-identical to what it was before receipts existed
 * (a golden test guards it). `metadata` comes last and only when the artifact has some.
 */
export const ArtifactCreatedData = z.object({
  id: z.string().describe("Artifact id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link (a read capability)."),
  share_type: ShareType,
  tags: z.array(z.string()).describe("Routing hints, lowercased."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  provenance: Provenance,
  created_at: z.string().describe("ISO 8601 creation time."),
  expires_at: z.string().nullable().describe("ISO 8601 expiry time, or null when retained."),
  metadata: z
    .object({ schema: z.string() })
    .catchall(z.unknown())
    .optional()
    .describe("The full structured fields (receipts only); absent for every other artifact."),
});

export const MeasureDueData = z.object({
  id: z.string().describe("Receipt id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  measure_at: z.string().describe("The receipt's outcome.measure_at, as written."),
});

export const AcknowledgedData = z.object({
  id: z.string().describe("Receipt id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  acknowledgement: z
    .object({
      by: z.object({ user: z.string(), token_name: z.string() }).describe("Who acknowledged."),
      at: z.string().describe("ISO 8601 time."),
      note: z.string().nullable().describe("The note, or null."),
    })
    .describe("The acknowledgement record."),
});

/** SPEC §20: who must act changed. Names are bare user names; `by` is the user who changed it. */
export const AssignedData = z.object({
  id: z.string().describe("Artifact id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  assignee: z.string().nullable().describe("The user now assigned, or null when nobody is."),
  previous_assignee: z.string().nullable().describe("The user assigned before, or null."),
  by: z.object({ user: z.string(), token_name: z.string() }).describe("Who changed it, from the bearer token."),
});

const By = z.object({ user: z.string(), token_name: z.string() });

/** SPEC §34: the artifact moved to another owner; it names both. Sent to the subscriptions of both owners. */
export const TransferredData = z.object({
  id: z.string().describe("Artifact id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("The new owner, `team:NAME`."),
  previous_owner: z.string().describe("The owner before, `user:NAME` or `team:NAME`."),
  by: By.describe("Who moved it, from the bearer token."),
});

/** SPEC §34: someone who may read the artifact commented on it. Sent to the owner's subscriptions. */
export const CommentedData = z.object({
  id: z.string().describe("Artifact id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  comment: z.object({
    id: z.string().describe("Comment id."),
    body: z.string().describe("The comment as stored (markdown, secret-scanned)."),
    by: By.describe("Who wrote it, from the bearer token."),
    agent: z.boolean().describe("True when an agent token wrote it."),
  }),
});

/**
 * SPEC §37: a member invited a name to the team. `user` is the name as typed, whether or
 * not it names a user: the team's receivers learn nothing the inviter could not.
 */
export const InvitedData = z.object({
  team: z.string().describe("`team:NAME`."),
  user: z.string().describe("The name invited, as typed."),
  by: By.describe("Who invited, from the bearer token."),
});

/** SPEC §37: a user joined the team, by accepting an invitation or added by an administrator. */
export const JoinedData = z.object({
  team: z.string().describe("`team:NAME`."),
  user: z.string().describe("The user who joined."),
  via: z.enum(["invitation", "administrator"]).describe("`invitation`: they accepted one; `administrator`: an administrator added them directly."),
  by: By.describe("Who made it happen: the user who accepted, or the administrator."),
});

/** SPEC §32: a person answered a receipt's ask. `by` comes from the credential, `via` from the surface that carried the answer. */
export const DecidedData = z.object({
  id: z.string().describe("Receipt id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  option: z.string().describe("The chosen option's id."),
  label: z.string().describe("The chosen option's label."),
  comment: z.string().nullable().describe("The comment, or null."),
  by: z.object({ user: z.string(), token_name: z.string() }).describe("Who answered."),
  via: z.string().describe("Where: web, cli, rest, slack, email, ntfy or mcp-app."),
  at: z.string().describe("ISO 8601 time of the answer."),
});

/** SPEC §32: a receipt's ask passed its answer_by unanswered. */
export const DecisionExpiredData = z.object({
  id: z.string().describe("Receipt id."),
  title: z.string().describe("Title."),
  url: z.string().describe("Share link."),
  owner: z.string().describe("`user:NAME` or `team:NAME`."),
  at: z.string().describe("ISO 8601 time the ask expired (its answer_by)."),
});

/** Payload schema of each type's `data`. Parsing with it fixes the key order and strips anything else. */
export const EVENT_DATA = {
  "artifact.created": ArtifactCreatedData,
  // The drop receipt object of §13: classification and field paths, never field values.
  "receipt.dropped": DropReceipt,
  "receipt.measure_due": MeasureDueData,
  "receipt.acknowledged": AcknowledgedData,
  "artifact.assigned": AssignedData,
  "artifact.transferred": TransferredData,
  "artifact.commented": CommentedData,
  "team.invited": InvitedData,
  "team.joined": JoinedData,
  "receipt.decided": DecidedData,
  "receipt.decision_expired": DecisionExpiredData,
} as const satisfies { readonly [T in EventType]: z.ZodType };

/**
 * `webhook.test` (SPEC §19): queued by subscription_test to that one subscription, whatever
 * its filter. Not a type a filter names, and never fanned out to the owner's other
 * subscriptions.
 */
export const TEST_EVENT_TYPE = "webhook.test";
export const TestEventData = z.object({ subscription_id: z.string().describe("The subscription the test was sent to.") });

export type EventData<T extends EventType> = z.input<(typeof EVENT_DATA)[T]>;

/** What a verb hands to recordEvent. */
export type NewEvent = { [T in EventType]: { type: T; owner: string; data: EventData<T> } }[EventType];
