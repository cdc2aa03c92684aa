import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { listDeliveries, recoverEvents, redeliverEvent, testSubscription } from "./redeliver.js";
import {
  CreatedSubscription,
  DeliveriesInput,
  DeliveriesOutput,
  RecoverInput,
  RedeliverInput,
  Requeued,
  RotatedSecret,
  RotateSecretInput,
  Subscription,
  SubscriptionCreateInput,
  SubscriptionIdInput,
  SubscriptionList,
  SubscriptionListInput,
  TestQueued,
} from "./subscription-schemas.js";
import { createSubscription, deleteSubscription, enableSubscription, listSubscriptions, readSubscription, rotateSecret } from "./subscriptions.js";

/** This area's group in the API documentation. */
export const EVENT_TAG = defineApiTag(
  "Webhooks",
  "Subscriptions that POST signed events (Standard Webhooks) to your URL, their delivery attempts, redelivery and recovery.",
);

/**
 * Webhook subscriptions (SPEC §10). Creating or managing one needs a human token
 * (`subscriptions:write`, SPEC §18, checked once by the registry); agents may list and read.
 */
export const EVENT_OPERATIONS = {
  subscription_create: defineOperation({
    notOn: { mcp: "an outbound target is a person's decision" },
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
    notOn: { mcp: "agents list subscriptions; managing them is for people" },
    title: "Read a webhook subscription",
    description: "Read one webhook subscription: url, events, whether it is enabled and why not.",
    input: SubscriptionIdInput,
    output: Subscription,
    mutates: false,
    errors: ["not_found"],
    run: readSubscription,
  }),
  subscription_delete: defineOperation({
    notOn: { mcp: "an outbound target is a person's decision" },
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
    notOn: { mcp: "an outbound target is a person's decision" },
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
    notOn: { mcp: "agents list subscriptions; managing them is for people" },
    title: "List delivery attempts",
    description:
      "List a subscription's delivery attempts, newest first: event id and type, attempt number, HTTP status, error, latency. With view=events: each event's state (pending, delivered, failed), attempts and next attempt time.",
    input: DeliveriesInput,
    output: DeliveriesOutput,
    mutates: false,
    errors: ["not_found"],
    run: listDeliveries,
  }),
  subscription_redeliver: defineOperation({
    notOn: { mcp: "an outbound target is a person's decision" },
    title: "Redeliver one event",
    description:
      "Send one event to this subscription now, once, with the same id and bytes: a delivery waiting in backoff is brought forward, never doubled. Human tokens only.",
    input: RedeliverInput,
    output: Requeued,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found"],
    run: redeliverEvent,
  }),
  subscription_recover: defineOperation({
    notOn: { mcp: "an outbound target is a person's decision" },
    title: "Resend events since a time",
    description:
      "Resend every event since a time (within the last 30 days) that this subscription takes and has not received (failed or waiting in backoff); delivered events and events from before the subscription existed are not sent. Human tokens only.",
    input: RecoverInput,
    output: Requeued,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found"],
    run: recoverEvents,
  }),
  subscription_test: defineOperation({
    title: "Send a test event",
    description:
      "Queue a `webhook.test` event (`data: {subscription_id}`) to this subscription only, whatever its events filter; it is signed, delivered and listed like any other. Human tokens only.",
    input: SubscriptionIdInput,
    output: TestQueued,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found"],
    notOn: { mcp: "an outbound target is a person's decision" },
    run: testSubscription,
  }),
  subscription_rotate_secret: defineOperation({
    title: "Rotate a signing secret",
    description:
      "Replace the subscription's signing secret; the new `whsec_` secret is shown once. Every secret replaced in the last 24 h keeps signing (new first) until 24 h after it was replaced, so a receiver verifying with any of them accepts; at most three sign, and a rotation that would need a fourth is a 409 naming when the oldest stops. The answer lists every secret still signing and until when. Human tokens only.",
    input: RotateSecretInput,
    output: RotatedSecret,
    mutates: true,
    permission: "subscriptions:write",
    errors: ["not_found", "conflict"],
    notOn: { mcp: "an outbound target is a person's decision" },
    run: rotateSecret,
  }),
} as const;
