import type { Subscription } from "@cairn/core";
import { eventDeliveryTextOf, readableInstant, subscriptionStateOf } from "../light.js";
import type { Printer } from "../output.js";
import { operationCommand } from "./define.js";

function printSubscription(s: Subscription, printer: Printer): void {
  // Core's words for the state, as the web shows them ("Disabled: its creator sam left the team").
  const state = subscriptionStateOf(s);
  printer.out(`${s.id}  ${s.url}  (${s.owner}; ${state.badge}: ${state.text})`);
  printer.out(`  events: ${s.events.join(", ")}`);
  printer.out(`  created by ${s.created_by} at ${readableInstant(s.created_at)}`);
}

export const subscribeCommand = operationCommand("subscription_create", {
  words: ["subscribe"],
  args: [{ field: "url", name: "URL" }],
  options: [
    { field: "events", flags: "--events <type...>" },
    { field: "owner", flags: "--owner <owner>" },
  ],
  examples: [
    "cairn subscribe https://hooks.example.com/cairn",
    "cairn subscribe https://hooks.example.com/cairn --events artifact.created receipt.dropped --owner team:platform",
  ],
  human(s, printer) {
    printer.out(`Subscribed ${s.id}: ${s.url}`);
    printer.out(`  events: ${s.events.join(", ")}`);
    printer.out("Signing secret (shown once; verify deliveries with it):");
    printer.out(s.secret);
  },
});

export const subscriptionsCommand = operationCommand("subscription_list", {
  words: ["subscriptions"],
  options: [{ field: "owner", flags: "--owner <owner>" }, { field: "limit" }, { field: "cursor" }],
  examples: ["cairn subscriptions", "cairn subscriptions --owner team:platform --json"],
  human(list, printer) {
    if (list.items.length === 0) printer.out("No subscriptions. Add one with `cairn subscribe URL`.");
    for (const s of list.items) printSubscription(s, printer);
    if (list.next_cursor) printer.err(`More: --cursor ${list.next_cursor}`);
  },
});

export const deliveriesCommand = operationCommand("subscription_deliveries", {
  words: ["deliveries"],
  args: [{ field: "id", name: "ID" }],
  options: [{ field: "view", flags: "--view <view>" }, { field: "limit" }, { field: "cursor" }],
  examples: ["cairn deliveries sub_06h2k3m4n5p6q7r8s9t0v1w2x3", "cairn deliveries sub_06h2k3m4n5p6q7r8s9t0v1w2x3 --view events"],
  human(list, printer) {
    const items = list.items as ReadonlyArray<(typeof list.items)[number]>;
    if (items.length === 0) printer.out("Nothing delivered or queued yet.");
    for (const item of items) {
      if ("state" in item) {
        printer.out(`${item.event_id}  ${item.event_type}  ${eventDeliveryTextOf(item)}`);
      } else {
        const outcome = item.error ? `failed: ${item.error}` : `HTTP ${item.status_code}`;
        printer.out(`${readableInstant(item.at)}  ${item.event_id} ${item.event_type} #${item.attempt}  ${outcome}  ${item.latency_ms} ms`);
      }
    }
    if (list.next_cursor) printer.err(`More: --cursor ${list.next_cursor}`);
    const first = items[0];
    if (first && !("state" in first)) printer.err("Each event's state and next attempt: add --view events");
  },
});

export const subscriptionShowCommand = operationCommand("subscription_read", {
  words: ["subscription", "show"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn subscription show sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: printSubscription,
});

export const subscriptionDeleteCommand = operationCommand("subscription_delete", {
  words: ["subscription", "delete"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn subscription delete sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (s, printer) => printer.out(`Deleted ${s.id} (${s.url}).`),
});

export const subscriptionEnableCommand = operationCommand("subscription_enable", {
  words: ["subscription", "enable"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn subscription enable sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human(s, printer) {
    printSubscription(s, printer);
    // Events that happened while it was off were not sent (SPEC §24): say how to send them now.
    printer.out(`Events from while it was off were not sent; resend them with: cairn subscription recover ${s.id} --since <time>`);
  },
});

export const subscriptionRedeliverCommand = operationCommand("subscription_redeliver", {
  words: ["subscription", "redeliver"],
  args: [
    { field: "id", name: "ID" },
    { field: "event_id", name: "EVENT_ID" },
  ],
  examples: ["cairn subscription redeliver sub_06h2k3m4n5p6q7r8s9t0v1w2x3 evt_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (r, printer) => printer.out(r.queued === 1 ? "Sending it now; see `cairn deliveries ID --view events`." : "Nothing queued."),
});

export const subscriptionRecoverCommand = operationCommand("subscription_recover", {
  words: ["subscription", "recover"],
  args: [{ field: "id", name: "ID" }],
  options: [{ field: "since", flags: "--since <time>" }],
  examples: ["cairn subscription recover sub_06h2k3m4n5p6q7r8s9t0v1w2x3 --since 2026-12-01T00:00:00Z"],
  human: (r, printer) => printer.out(`Queued ${r.queued} event${r.queued === 1 ? "" : "s"}.`),
});

export const subscriptionTestCommand = operationCommand("subscription_test", {
  words: ["subscription", "test"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn subscription test sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (r, printer) => printer.out(`Queued webhook.test event ${r.event_id}; see \`cairn deliveries ID\` for the attempt.`),
});

export const subscriptionRotateSecretCommand = operationCommand("subscription_rotate_secret", {
  words: ["subscription", "rotate-secret"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn subscription rotate-secret sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human(r, printer) {
    printer.out(`New signing secret for ${r.id} (shown once):`);
    printer.out(r.secret);
    printer.out("Secrets signing every delivery now, newest first:");
    for (const s of r.signing) {
      printer.out(
        s.secret === "new" || s.signs_until === null || s.replaced_at === null
          ? "  the new secret (above), until it is replaced"
          : `  the secret replaced at ${readableInstant(s.replaced_at)}, until ${readableInstant(s.signs_until)}`,
      );
    }
    printer.out("Switch your receiver to the new secret before the last of those times.");
  },
});
