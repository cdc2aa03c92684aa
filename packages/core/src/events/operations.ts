import { defineOperation } from "../operations/define.js";
import { listDeliveries, recoverEvents, redeliverEvent } from "./redeliver.js";
import {
  CreatedSubscription,
  DeliveriesInput,
  DeliveryList,
  RecoverInput,
  RedeliverInput,
  Requeued,
  Subscription,
  SubscriptionCreateInput,
  SubscriptionIdInput,
  SubscriptionList,
  SubscriptionListInput,
} from "./subscription-schemas.js";
import { createSubscription, deleteSubscription, enableSubscription, listSubscriptions, readSubscription } from "./subscriptions.js";

/**
 * Webhook subscriptions (SPEC §10). Creating or managing one needs a human token
 * (`subscriptions:write`, SPEC §18, checked once by the registry); agents may list and read.
 */
export const EVENT_OPERATIONS = {
  subscription_create: defineOperation({
    title: "Subscribe a URL to events",
    description:
      "Subscribe a URL to your events (or a team's, as a member): artifact.created, receipt.dropped, receipt.measure_due, receipt.acknowledged, artifact.assigned. Deliveries are signed per Standard Webhooks with the returned `whsec_` secret, which is shown only once. Human tokens only.",
    input: SubscriptionCreateInput,
    output: CreatedSubscription,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["forbidden"],
    run: createSubscription,
  }),
  subscription_list: defineOperation({
    title: "List webhook subscriptions",
    description: "List the webhook subscriptions of you and your teams (never their secrets), newest first.",
    input: SubscriptionListInput,
    output: SubscriptionList,
    mutates: false,
    errors: ["forbidden"],
    run: listSubscriptions,
  }),
  subscription_read: defineOperation({
    title: "Read a webhook subscription",
    description: "Read one webhook subscription: url, events, whether it is enabled and why not.",
    input: SubscriptionIdInput,
    output: Subscription,
    mutates: false,
    errors: ["not_found"],
    run: readSubscription,
  }),
  subscription_delete: defineOperation({
    title: "Delete a webhook subscription",
    description: "Delete a webhook subscription with its pending deliveries and attempt history. Human tokens only.",
    input: SubscriptionIdInput,
    output: Subscription,
    mutates: true,
    permission: "subscriptions:write",
    destructive: true,
    errors: ["not_found"],
    run: deleteSubscription,
  }),
  subscription_enable: defineOperation({
    title: "Re-enable a webhook subscription",
    description: "Re-enable a subscription disabled after a 410 answer or 5 days of failures; its waiting deliveries resume. Human tokens only.",
    input: SubscriptionIdInput,
    output: Subscription,
    mutates: true,
    permission: "subscriptions:write",
    idempotent: true,
    errors: ["not_found"],
    run: enableSubscription,
  }),
  subscription_deliveries: defineOperation({
    title: "List delivery attempts",
    description: "List a subscription's delivery attempts, newest first: event id, attempt number, HTTP status, error, latency.",
    input: DeliveriesInput,
    output: DeliveryList,
    mutates: false,
    errors: ["not_found"],
    run: listDeliveries,
  }),
  subscription_redeliver: defineOperation({
    title: "Redeliver one event",
    description: "Send one event to this subscription again, with the same id and bytes. Human tokens only.",
    input: RedeliverInput,
    output: Requeued,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found"],
    run: redeliverEvent,
  }),
  subscription_recover: defineOperation({
    title: "Resend events since a time",
    description: "Send again every event of the owner since a time (within the last 30 days) that this subscription takes. Human tokens only.",
    input: RecoverInput,
    output: Requeued,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found"],
    run: recoverEvents,
  }),
} as const;
