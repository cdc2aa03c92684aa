import { operationCommand } from "./define.js";
import { READ_HANDLING } from "./read-handling.js";

export const readCommand = operationCommand("artifact_read", {
  ...READ_HANDLING,
  words: ["read"],
  args: [{ field: "id", name: "ID" }],
  summary: "Read one artifact: by id (yours or your team's), or by the share link you were given.",
  examples: [
    "cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3",
    "cairn read http://127.0.0.1:7373/s/Xk3…   # a share link: read as its holder, no token sent",
    "cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3 --json | jq .metadata.human_action",
  ],
});
