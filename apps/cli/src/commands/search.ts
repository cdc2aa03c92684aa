import { listLine } from "../format.js";
import { operationCommand } from "./define.js";

export const searchCommand = operationCommand("artifact_search", {
  words: ["search"],
  args: [{ field: "q", name: "WORDS", variadic: true }],
  options: [
    { field: "tag", flags: "--tag <tag>" },
    { field: "owner", flags: "--owner <owner>" },
    { field: "schema", flags: "--schema <schema>" },
    { field: "human_action", flags: "--human-action <needed|none>" },
    { field: "outcome", flags: "--outcome <status>" },
    { field: "measure_before", flags: "--measure-before <date>" },
    { field: "created_after", flags: "--created-after <date>" },
    { field: "created_before", flags: "--created-before <date>" },
    { field: "fields", flags: "--fields <full|summary>" },
    { field: "limit", flags: "--limit <n>" },
    { field: "cursor", flags: "--cursor <cursor>" },
  ],
  examples: [
    "cairn search --tag receipt",
    "cairn search --human-action needed --owner team:platform",
    "cairn search --outcome overdue --fields summary",
    "cairn search --created-after 2026-12-01 --schema cairn.receipt/v1",
    "cairn search upload retries --limit 5",
    "cairn search --tag export --json | jq -r '.items[].url'",
  ],
  human(page, printer) {
    if (page.items.length === 0) printer.out("Nothing matches.");
    for (const a of page.items) printer.out(listLine(a));
    if (page.next_cursor) printer.out(`More: run again with --cursor ${page.next_cursor}`);
  },
});
