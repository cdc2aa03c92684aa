import { listLine } from "../format.js";
import { operationCommand } from "./define.js";

export const searchCommand = operationCommand("artifact_search", {
  words: ["search"],
  args: [{ field: "q", name: "WORDS", variadic: true }],
  options: [
    { field: "tag", flags: "--tag <tag>" },
    { field: "limit", flags: "--limit <n>" },
    { field: "cursor", flags: "--cursor <cursor>" },
  ],
  examples: ["cairn search --tag receipt", "cairn search upload retries --limit 5", "cairn search --tag export --json | jq -r '.items[].url'"],
  human(page, printer) {
    if (page.items.length === 0) printer.out("Nothing matches.");
    for (const a of page.items) printer.out(listLine(a));
    if (page.next_cursor) printer.out(`More: run again with --cursor ${page.next_cursor}`);
  },
});
