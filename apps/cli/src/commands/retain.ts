import { CONFIRMATIONS } from "../light.js";
import { operationCommand } from "./define.js";

export const retainCommand = operationCommand("artifact_retain", {
  words: ["retain"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn retain art_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human(a, printer) {
    printer.out(`${a.id}: ${CONFIRMATIONS.retained()}`);
    printer.out(a.url);
  },
});
