import { printArtifact } from "../format.js";
import { operationCommand } from "./define.js";

export const readCommand = operationCommand("artifact_read", {
  words: ["read"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3", "cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3 --json | jq .metadata.human_action"],
  human: printArtifact,
});
