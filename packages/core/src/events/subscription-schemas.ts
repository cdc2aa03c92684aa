import { z } from "zod";
import { CALENDAR_YEARS_REASON, calendarError, isWithinCalendarYears } from "../dates.js";
import { OwnerRef } from "../identity/names.js";
import { LIMITS } from "../limits.js";
import { PAGE_FIELDS } from "../paging.js";
import { isIsoDateOrDateTime } from "../receipt/schemas.js";
import { storableString } from "../text.js";
import { EventTypeSchema } from "./schemas.js";

const SubscriptionId = storableString()
  .regex(/^sub_[0-9a-z]{26}$/, "is not a subscription id")
  .describe("Subscription id (`sub_…`).");

export const SubscriptionEvents = z
  .array(EventTypeSchema)
  .min(1)
  .max(16)
  .describe("Event types this subscription receives. Omit for every type, including types added later.");

export const SubscriptionCreateInput = z.strictObject({
  url: storableString().max(LIMITS.url).describe("Where events are POSTed: an `http:` or `https:` URL, without credentials in it."),
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
    failing_since: z
      .string()
      .nullable()
      .describe("ISO 8601 time since which an event of this subscription is failing (not delivered after a failed attempt), or null."),
    created_by: z.string().describe("The user who created it (or re-enabled it as their own); a team subscription is disabled when that user leaves the team."),
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
    event_type: z.string().describe("The event's type, e.g. `artifact.created` or `webhook.test`."),
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

export const DELIVERY_VIEWS = ["attempts", "events"] as const;

export const DeliveriesInput = z.strictObject({
  id: SubscriptionId,
  view: z
    .enum(DELIVERY_VIEWS)
    .optional()
    .describe("`attempts` (default): every attempt, newest first. `events`: each event's delivery state and next attempt, newest first."),
  ...PAGE_FIELDS,
});

export const EventDelivery = z
  .object({
    event_id: z.string().describe("Event id (the `webhook-id`)."),
    event_type: z.string().describe("The event's type."),
    state: z
      .enum(["pending", "delivered", "failed"])
      .describe(
        "`pending`: waiting for an attempt or in flight; `delivered`: a 2xx answer; `failed`: the retries are used up (recover or redeliver resends it).",
      ),
    attempts: z.number().int().describe("Attempts made so far."),
    in_flight: z.boolean().describe("An attempt is being sent right now."),
    next_attempt_at: z
      .string()
      .nullable()
      .describe(
        "ISO 8601 time of the next attempt while pending (for one in flight: when it is tried again should this attempt never finish); null once delivered or failed.",
      ),
  })
  .meta({ id: "EventDelivery", description: "One event's delivery to one subscription." });
export type EventDelivery = z.infer<typeof EventDelivery>;

export const EventDeliveryList = z
  .object({
    items: z.array(EventDelivery),
    next_cursor: z.string().nullable().describe("Pass as `cursor` (with `view=events`) for the next page; null on the last page."),
  })
  .meta({ id: "EventDeliveryList", description: "Each event's delivery state for a subscription, newest first." });

export const DeliveriesOutput = z.union([DeliveryList, EventDeliveryList]).describe("Attempts (`view=attempts`) or event states (`view=events`).");

export const RedeliverInput = z.strictObject({
  id: SubscriptionId,
  event_id: storableString()
    .regex(/^evt_[0-9a-z]{26}$/, "is not an event id")
    .describe("The event to send again (`evt_…`)."),
});

export const RecoverInput = z.strictObject({
  id: SubscriptionId,
  since: storableString()
    .max(64)
    .refine(isIsoDateOrDateTime, { error: calendarError("must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)"), abort: true })
    .refine(isWithinCalendarYears, CALENDAR_YEARS_REASON)
    .describe("ISO 8601 date or date-time with a zone: resend every event of the owner since then that this subscription takes."),
});

export const RotateSecretInput = SubscriptionIdInput;

export const SigningSecret = z
  .object({
    secret: z.enum(["new", "replaced"]).describe("`new`: the secret this rotation returned; `replaced`: one an earlier rotation replaced, still signing."),
    replaced_at: z.string().nullable().describe("ISO 8601 time it was replaced; null for the new secret."),
    signs_until: z
      .string()
      .nullable()
      .describe("ISO 8601 time its signatures stop (24 h after it was replaced); null for the new secret, which signs until it is replaced."),
  })
  .meta({ id: "SigningSecret", description: "One secret that signs a subscription's deliveries now, without its value." });

export const RotatedSecret = z
  .object({
    id: z.string().describe("Subscription id."),
    secret: z.string().describe("The new `whsec_` signing secret. Shown once: store it now; it cannot be read again."),
    previous_secret_expires_at: z
      .string()
      .describe("ISO 8601 time until which deliveries also carry a signature with the secret just replaced (24 h), so receivers can switch over."),
    signing: z
      .array(SigningSecret)
      .describe(
        "Every secret that signs deliveries now, newest first: the new one, then each replaced in the last 24 h and until when (never their values; at most three).",
      ),
  })
  .meta({
    id: "RotatedSecret",
    description:
      "A subscription's new signing secret (shown only here); every secret replaced in the last 24 h signs beside it until 24 h after it was replaced.",
  });

export const TestQueued = z
  .object({
    event_id: z.string().describe("The `webhook.test` event's id (the `webhook-id` the receiver gets)."),
    queued: z.number().int().describe("1: the event is queued for this subscription."),
  })
  .meta({ id: "TestQueued", description: "A `webhook.test` event queued to one subscription." });

export const Requeued = z
  .object({ queued: z.number().int().describe("How many events were queued for delivery.") })
  .meta({ id: "Requeued", description: "Events queued for another delivery." });
