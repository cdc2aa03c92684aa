import { operationCommand } from "./define.js";

export const tokenCreateCommand = operationCommand("token_create", {
  words: ["token", "create"],
  args: [{ field: "name", name: "NAME" }],
  options: [
    { field: "kind", flags: "--kind <kind>" },
    { field: "user", flags: "--user <user>" },
  ],
  examples: [
    "cairn token create nightly-export --kind agent",
    "CAIRN_TOKEN=$(cairn token create ci --kind agent --user dana)   # the token alone is on stdout",
  ],
  // The token alone goes to stdout, so `$(cairn token create …)` captures it.
  human(token, printer) {
    printer.err(`Token "${token.name}" (${token.kind}) for ${token.user}, shown once:`);
    printer.out(token.token);
  },
});
