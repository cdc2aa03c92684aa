import { operationCommand } from "./define.js";

export const whoamiCommand = operationCommand("me", {
  words: ["whoami"],
  examples: ["cairn whoami", "CAIRN_TOKEN=cairn_… cairn whoami --json"],
  human(me, printer) {
    const admin = me.user.is_admin ? " (administrator)" : "";
    printer.out(`${me.user.name}${admin}, with token "${me.token.name}" (${me.token.kind})`);
    printer.out(`teams: ${me.teams.length > 0 ? me.teams.join(", ") : "none"}`);
  },
});
