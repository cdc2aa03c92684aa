import type { PreparedReceipt } from "@cairn/core/receipt";
import { fieldLines } from "../format.js";
import type { Printer } from "../output.js";

/**
 * What --dry-run shows: the body and checksum the server would store for these fields
 * (both come from core's prepareReceipt, the same code the server runs). With --json,
 * the stored fields of the would-be artifact; `owner: null` means "the calling user".
 */
export function printDryRun(prepared: PreparedReceipt, json: boolean, printer: Printer): void {
  if (json) {
    printer.out(
      JSON.stringify({
        title: prepared.title,
        share_type: "markdown",
        body: prepared.body,
        checksum: prepared.checksum,
        tags: prepared.tags,
        metadata: prepared.metadata,
        model: prepared.model ?? null,
        owner: prepared.owner ?? null,
      }),
    );
    return;
  }
  printer.out(prepared.body);
  printer.out("");
  printer.out("---");
  for (const line of fieldLines([
    ["title", prepared.title],
    ["tags", prepared.tags.join(", ")],
    ["checksum", prepared.checksum],
  ])) {
    printer.out(line);
  }
  printer.err("Dry run: the fields are valid; nothing was sent. The server also checks owner, follows and duplicates.");
}
