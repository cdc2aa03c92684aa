import { calendarError } from "../dates.js";
import { z } from "zod";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { PAGE_FIELDS } from "../paging.js";
import { isIsoDateOrDateTime } from "../receipt/schemas.js";
import { storableString } from "../text.js";
import { EventTypeSchema } from "./schemas.js";

const SubscriptionId = storableString().regex(/^sub_[0-9a-z]{26}$/, "is not a subscription id").describe("Subscription id (`sub_…`).");

export const SubscriptionEvents = z
  .array(EventTypeSchema)
  .min(1)
  .max(16)
  .describe("Event types this subscription receives. Omit for every type, including types added later.");

export const SubscriptionCreateInput = z.strictObject({
  url: storableString()
    .max(LIMITS.url)
    .describe("Where events are POSTed: an `http:` or `https:` URL, without credentials in it."),
  events: SubscriptionEvents.optional(),
  owner: OwnerRef.optional().describe("Whose events: `user:NAME` (default: you) or `team:NAME` (members only)."),
});

export const CreatedSubscription = z
  .object({
    id: z.string().describe("Subscription id."),
    url: z.string().describe("Target URL."),
    events: z.array(EventTypeSchema).describe("Event types it receives."),
    secret: z.string().describe("The `whsec_` signing secret. Shown once: store it now; it cannot be read again."),
  })
  .meta({ id: "CreatedSubscription", description: "A new subscription, with its signing secret (shown only here)." });

export const Subscription = z
  .object({
    id: z.string().describe("Subscription id."),
    url: z.string().describe("Target URL."),
    events: z.array(EventTypeSchema).describe("Event types it receives."),
    enabled: z.boolean().describe("False after a 410 answer or 5 days of failed attempts; re-enable with subscription_enable."),
    disabled_reason: z.string().nullable().describe("Why it was disabled, or null."),
    created_at: z.string().describe("ISO 8601 creation time."),
    owner: z.string().describe("`user:NAME` or `team:NAME` whose events it receives."),
    failing_since: z.string().nullable().describe("ISO 8601 time of the first failed attempt since the last success, or null."),
  })
  .meta({ id: "Subscription", description: "A webhook subscription (never its secret)." });
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionList = z
  .object({
    items: z.array(Subscription),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "SubscriptionList", description: "Subscriptions of the owners you act for, newest first." });

export const SubscriptionListInput = z.strictObject({
  owner: OwnerRef.optional().describe("Only this owner's subscriptions (yourself or a team you belong to)."),
  ...PAGE_FIELDS,
});

export const SubscriptionIdInput = z.strictObject({ id: SubscriptionId });

export const DeliveryAttempt = z
  .object({
    event_id: z.string().describe("Event id; equals the payload's `id` and the `webhook-id` header."),
    attempt: z.number().int().describe("1 for the first attempt of this event to this subscription, then 2, 3…"),
    status_code: z.number().int().nullable().describe("HTTP status the receiver answered, or null when there was no answer."),
    error: z.string().optional().describe("Why the attempt failed (timeout, refused target, HTTP status…); absent on success."),
    latency_ms: z.number().int().describe("Time from sending to the answer (or the failure), in milliseconds."),
    at: z.string().describe("ISO 8601 time of the attempt."),
  })
  .meta({ id: "DeliveryAttempt", description: "One delivery attempt of one event to one subscription." });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveryList = z
  .object({
    items: z.array(DeliveryAttempt),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "DeliveryList", description: "Delivery attempts of a subscription, newest first." });

export const DeliveriesInput = z.strictObject({ id: SubscriptionId, ...PAGE_FIELDS });

export const RedeliverInput = z.strictObject({
  id: SubscriptionId,
  event_id: storableString().regex(/^evt_[0-9a-z]{26}$/, "is not an event id").describe("The event to send again (`evt_…`)."),
});

export const RecoverInput = z.strictObject({
  id: SubscriptionId,
  since: storableString()
    .max(64)
    .refine(isIsoDateOrDateTime, { error: calendarError("must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)") })
    .describe("ISO 8601 date or date-time with a zone: resend every event of the owner since then that this subscription takes."),
});

export const Requeued = z
  .object({ queued: z.number().int().describe("How many events were queued for delivery.") })
  .meta({ id: "Requeued", description: "Events queued for another delivery." });
