import type { NotificationSettingsView } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { operationMeta } from "../metadata.js";
import type { Printer } from "../output.js";
import { type CliCommand, examplesHelp, operationCommand } from "./define.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

const ID = "chn_06h2k3m4n5p6q7r8s9t0v1w2x3";

export const notifyAddCommand = operationCommand("channel_create", {
  words: ["notify", "add"],
  args: [
    { field: "kind", name: "KIND" },
    { field: "target", name: "TARGET" },
  ],
  examples: [
    "cairn notify add email sam@example.com",
    "cairn notify add slack https://hooks.slack.com/services/T000/B000/XXXX",
    "cairn notify add ntfy https://ntfy.sh/my-topic",
  ],
  human(c, printer) {
    printer.out(`Added ${c.id}: ${c.kind} ${c.target} (${c.state})`);
    if (c.state === "pending") printer.out("Confirm it: open the link Cairn mailed to that address and press Confirm.");
    else printer.out(`Try it: cairn notify test ${c.id}`);
  },
});

export const notifyListCommand = operationCommand("channel_list", {
  words: ["notify", "list"],
  examples: ["cairn notify list", "cairn notify list --json"],
  human(list, printer) {
    if (list.items.length === 0) printer.out("No channels. Add one: cairn notify add email|slack|ntfy TARGET");
    for (const c of list.items) {
      printer.out(`${c.id}  ${c.kind}  ${c.target}  ${c.state === "disabled" ? `DISABLED: ${c.disabled_reason ?? ""}` : c.state}`);
    }
  },
});

export const notifyTestCommand = operationCommand("channel_test", {
  words: ["notify", "test"],
  args: [{ field: "id", name: "ID" }],
  examples: [`cairn notify test ${ID}`],
  human: (t, printer) => printer.out(`Queued a test message to ${t.channel_id}; see it in: cairn notify deliveries ${t.channel_id}`),
});

export const notifyRemoveCommand = operationCommand("channel_delete", {
  words: ["notify", "remove"],
  args: [{ field: "id", name: "ID" }],
  examples: [`cairn notify remove ${ID}`],
  human: (c, printer) => printer.out(`Removed ${c.id} (${c.kind} ${c.target}).`),
});

export const notifyDeliveriesCommand = operationCommand("channel_deliveries", {
  words: ["notify", "deliveries"],
  args: [{ field: "id", name: "ID" }],
  examples: [`cairn notify deliveries ${ID}`],
  human(list, printer) {
    if (list.items.length === 0) printer.out("Nothing sent on this channel yet.");
    for (const a of list.items) {
      const outcome = a.ok ? `sent (${a.status_code ?? "ok"})` : `failed: ${a.error ?? ""}`;
      printer.out(`${a.at}  ${a.triggers.join(", ")}${a.notifications > 1 ? ` ×${a.notifications}` : ""}  ${outcome}  ${a.latency_ms} ms`);
    }
  },
});

export const notifyFeedKeyCommand = operationCommand("feed_key_rotate", {
  words: ["notify", "feed-key"],
  examples: ["cairn notify feed-key"],
  human(k, printer) {
    printer.out(`Feed: ${k.url}`);
    printer.out("Shown once; the previous key no longer works. Anyone with this address can read what waits on you.");
  },
});

function printSettings(s: NotificationSettingsView, printer: Printer): void {
  for (const [name, on] of Object.entries(s.triggers)) printer.out(`${name.padEnd(12)} ${on ? "on" : "off"}`);
  printer.out(`${"remind_after".padEnd(12)} ${s.remind_after} s`);
  printer.out(`${"digest_hour".padEnd(12)} ${String(s.digest_hour).padStart(2, "0")}:00 UTC`);
}

const TRIGGER_KEYS = ["assigned", "open_action", "overdue", "reminder", "digest", "decided"];
const NUMBER_KEYS = ["remind_after", "digest_hour"];

/** `KEY VALUE` pairs as the PUT body: triggers take on|off, the others whole numbers; the server checks the limits. */
function settingsInput(pairs: readonly string[]): Record<string, unknown> {
  if (pairs.length % 2 !== 0) throw CliFailure.usage("give KEY VALUE pairs, e.g. `cairn notify settings reminder off remind_after 3600`.");
  const triggers: Record<string, boolean> = {};
  const input: Record<string, unknown> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const key = pairs[i] as string;
    const value = pairs[i + 1] as string;
    if (TRIGGER_KEYS.includes(key)) {
      if (!["on", "off", "true", "false"].includes(value)) throw CliFailure.usage(`${key} takes on or off (got ${JSON.stringify(value)}).`);
      triggers[key] = value === "on" || value === "true";
    } else if (NUMBER_KEYS.includes(key)) {
      if (!/^\d+$/.test(value)) throw CliFailure.usage(`${key} takes a whole number (got ${JSON.stringify(value)}).`);
      input[key] = Number(value);
    } else throw CliFailure.usage(`unknown setting ${JSON.stringify(key)}; use one of ${[...TRIGGER_KEYS, ...NUMBER_KEYS].join(", ")}.`);
  }
  return Object.keys(triggers).length > 0 ? { triggers, ...input } : input;
}

/** `cairn notify settings [KEY VALUE]...`: shows your settings, changing the ones named first. */
export const notifySettingsCommand: CliCommand<"notifications_set"> = {
  operation: "notifications_set",
  words: ["notify", "settings"],
  async commandLine(input) {
    if (!isPlainObject(input)) return null;
    const { triggers, ...rest } = input;
    const args = ["notify", "settings"];
    if (triggers !== undefined) {
      if (!isPlainObject(triggers)) return null;
      for (const [k, v] of Object.entries(triggers)) {
        if (typeof v !== "boolean") return null;
        args.push(k, v ? "on" : "off");
      }
    }
    for (const [k, v] of Object.entries(rest)) {
      if (v === undefined) continue;
      if (typeof v !== "number") return null;
      args.push(k, String(v));
    }
    return { args: [...args, "--json"] };
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("notifications_set");
    const cmd = parent
      .command("settings")
      .description(op.description)
      .argument("[KEY VALUE...]", `Triggers ${TRIGGER_KEYS.join(", ")} take on|off; remind_after takes seconds (at least 60), digest_hour 0–23 (UTC).`)
      .option("--json", JSON_HELP)
      .addHelpText(
        "after",
        examplesHelp(["cairn notify settings", "cairn notify settings digest on digest_hour 8", "cairn notify settings reminder on remind_after 3600"]),
      );
    cmd.action(async (pairs: string[], opts: { json?: boolean }) => {
      const json = opts.json === true;
      let input: Record<string, unknown>;
      try {
        input = settingsInput(pairs ?? []);
      } catch (err) {
        fail(ctx, err, json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const answer = await client.call("notifications_set", input);
        if (json) printer.out(answer.text);
        else printSettings(answer.data, printer);
      });
    });
  },
};
