import { readableInstant } from "../light.js";
import { operationCommand } from "./define.js";

const MARK = { ok: "ok  ", warn: "WARN", fail: "FAIL" } as const;

export const doctorCommand = operationCommand("doctor", {
  words: ["doctor"],
  examples: ["cairn doctor            # exits 0 when nothing warns, 1 otherwise", "cairn doctor --json"],
  human(doctor, printer) {
    for (const check of doctor.checks) {
      printer.out(`${MARK[check.status]}  ${check.name}: ${check.summary}`);
      if (check.next_action) printer.out(`      → ${check.next_action}`);
    }
  },
  exitCode: (doctor) => (doctor.checks.every((c) => c.status === "ok") ? 0 : 1),
});

export const statusCommand = operationCommand("status", {
  words: ["status"],
  examples: ["cairn status"],
  human(status, printer) {
    for (const line of status.lines) printer.out(line);
  },
});

export const dropsCommand = operationCommand("drops_list", {
  words: ["drops"],
  options: [{ field: "days" }, { field: "owner", flags: "--owner <owner>" }, { field: "limit" }, { field: "cursor" }],
  summary: "List receipt submissions the gates refused (drop receipts), newest first: category, cause, next action and failing fields — never the content.",
  examples: ["cairn drops", "cairn drops --days 30 --owner team:platform --json"],
  human(list, printer) {
    if (list.items.length === 0) printer.out("No drops in the window.");
    for (const d of list.items) {
      const fields = d.fields.length > 0 ? ` [${d.fields.join(", ")}]` : "";
      // A drop dealt with stays listed, marked as such (SPEC §24); only an open one still asks for something.
      const state = d.state === "open" ? "" : `  (${d.state})`;
      printer.out(`${readableInstant(d.created_at)}  ${d.category}${fields}  ${d.title ?? "(no title)"}  via ${d.surface}${state}`);
      if (d.recoverable && d.state === "open") printer.out(`  → ${d.next_action}`);
    }
    if (list.next_cursor) printer.err(`More: --cursor ${list.next_cursor}`);
  },
});

export const dropsDismissCommand = operationCommand("drops_dismiss", {
  words: ["drops", "dismiss"],
  options: [
    { field: "before", flags: "--before <time>" },
    { field: "owner", flags: "--owner <owner>" },
  ],
  summary:
    "Say you dealt with the drops made before a time (default: now): they stop counting toward doctor's warning and stay listed as dismissed (human tokens only).",
  examples: ["cairn drops dismiss", "cairn drops dismiss --before 2026-12-01T09:00:00Z --owner team:platform"],
  human(r, printer) {
    printer.out(
      r.dismissed === 0
        ? "Nothing to dismiss: no open drop before then."
        : `Dismissed ${r.dismissed} drop${r.dismissed === 1 ? "" : "s"} made before ${readableInstant(r.before)}; they stay listed in \`cairn drops\`.`,
    );
  },
});
