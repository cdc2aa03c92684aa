import { type PreparedReceipt, type Redaction, storedReceiptFields } from "@cairn/core/receipt";
import { fieldLines } from "../format.js";
import type { Printer } from "../output.js";

/**
 * What --dry-run shows: the body and checksum the server would store for these fields
 * (both come from core's prepareRedactedReceipt, the same code the server runs, with
 * secrets redacted as under the default policy). With --json,
 * the stored fields of the would-be artifact; `owner: null` means "the calling user".
 */
export function printDryRun(prepared: PreparedReceipt, redactions: readonly Redaction[], json: boolean, printer: Printer): void {
  if (json) {
    printer.out(
      JSON.stringify({
        ...storedReceiptFields(prepared),
        model: prepared.model ?? null,
        owner: prepared.owner ?? null,
        redactions,
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
    ...(redactions.length > 0 ? [["redacted", redactions.map((r) => `${r.field} (${r.rule})`).join(", ")] as const] : []),
  ])) {
    printer.out(line);
  }
  printer.err("Dry run: the fields are valid; nothing was sent. The server also checks owner, follows and duplicates.");
}
