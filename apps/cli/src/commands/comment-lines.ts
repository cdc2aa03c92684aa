import type { OperationOutput } from "@cairn/core";
import type { Printer } from "../output.js";

type Comment = OperationOutput<"comment_create">;

/** One comment as `cairn read` and `cairn comments` print it: who (an agent's marked as the agent's), when, then the words or the tombstone. */
export function printComment(c: Comment, printer: Printer): void {
  const who = c.agent ? `${c.token_name} (agent of ${c.author})` : c.author;
  if (c.deleted) {
    printer.out(`${c.id}  ${who} · ${c.created_at}  [deleted by ${c.deleted.by} at ${c.deleted.at}]`);
    return;
  }
  printer.out(`${c.id}  ${who} · ${c.created_at}`);
  for (const line of (c.body ?? "").split("\n")) printer.out(`  ${line}`);
}
