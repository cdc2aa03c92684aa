import type { Artifact } from "@cairn/core";
import type { Printer } from "../output.js";
import { operationCommand } from "./define.js";

function printMoved(artifact: Artifact, printer: Printer): void {
  printer.out(`Moved ${artifact.id} to ${artifact.owner}: ${artifact.title}`);
  printer.out(artifact.url);
}

/** `cairn transfer ID team:NAME` (SPEC §34): hands a receipt to a team. */
export const transferCommand = operationCommand("artifact_transfer", {
  words: ["transfer"],
  args: [
    { field: "id", name: "ID" },
    { field: "owner", name: "OWNER" },
  ],
  summary: "Move an artifact to a team you belong to (its acknowledgements, assignee and links follow)",
  examples: ["cairn transfer art_06h2k3m4n5p6q7r8s9t0v1w2x3 team:platform"],
  human: printMoved,
});
