import type { Subscription } from "@cairn/core";
import type { Printer } from "../output.js";
import { operationCommand } from "./define.js";

function printSubscription(s: Subscription, printer: Printer): void {
  const state = s.enabled ? (s.failing_since ? `failing since ${s.failing_since}` : "enabled") : `DISABLED: ${s.disabled_reason ?? ""}`;
  printer.out(`${s.id}  ${s.url}  (${s.owner}; ${state})`);
  printer.out(`  events: ${s.events.join(", ")}`);
}

export const subscribeCommand = operationCommand("subscription_create", {
  words: ["subscribe"],
  args: [{ field: "url", name: "URL" }],
  options: [{ field: "events", flags: "--events <type...>" }, { field: "owner", flags: "--owner <owner>" }],
  examples: [
    "cairn subscribe https://hooks.example.com/cairn",
    "cairn subscribe https://hooks.example.com/cairn --events artifact.created receipt.dropped --owner team:platform",
  ],
  human(s, printer) {
    printer.out(`Subscribed ${s.id}: ${s.url}`);
    printer.out(`  events: ${s.events.join(", ")}`);
    printer.out(`Signing secret (shown once; verify deliveries with it): ${s.secret}`);
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
  options: [{ field: "limit" }, { field: "cursor" }],
  examples: ["cairn deliveries sub_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human(list, printer) {
    if (list.items.length === 0) printer.out("No delivery attempts yet.");
    for (const a of list.items) {
      const outcome = a.error ? `failed: ${a.error}` : `HTTP ${a.status_code}`;
      printer.out(`${a.at}  ${a.event_id} #${a.attempt}  ${outcome}  ${a.latency_ms} ms`);
    }
    if (list.next_cursor) printer.err(`More: --cursor ${list.next_cursor}`);
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
  human: printSubscription,
});

export const subscriptionRedeliverCommand = operationCommand("subscription_redeliver", {
  words: ["subscription", "redeliver"],
  args: [
    { field: "id", name: "ID" },
    { field: "event_id", name: "EVENT_ID" },
  ],
  examples: ["cairn subscription redeliver sub_06h2k3m4n5p6q7r8s9t0v1w2x3 evt_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (r, printer) => printer.out(`Queued ${r.queued} event${r.queued === 1 ? "" : "s"}.`),
});

export const subscriptionRecoverCommand = operationCommand("subscription_recover", {
  words: ["subscription", "recover"],
  args: [{ field: "id", name: "ID" }],
  options: [{ field: "since", flags: "--since <time>" }],
  examples: ["cairn subscription recover sub_06h2k3m4n5p6q7r8s9t0v1w2x3 --since 2026-12-01T00:00:00Z"],
  human: (r, printer) => printer.out(`Queued ${r.queued} event${r.queued === 1 ? "" : "s"}.`),
});
