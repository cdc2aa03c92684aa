import type { Team } from "@cairn/core";
import type { Printer } from "../output.js";
import { operationCommand } from "./define.js";

function printTeam(team: Team, printer: Printer): void {
  printer.out(`${team.owner}  (${team.members.length} member${team.members.length === 1 ? "" : "s"})`);
  for (const member of team.members) printer.out(`  ${member}`);
}

export const teamCreateCommand = operationCommand("team_create", {
  words: ["team", "create"],
  args: [{ field: "name", name: "NAME" }],
  examples: ["cairn team create platform", "cairn receipt --from receipt.json --owner team:platform"],
  human: printTeam,
});

export const teamShowCommand = operationCommand("team_read", {
  words: ["team", "show"],
  args: [{ field: "name", name: "NAME" }],
  examples: ["cairn team show platform"],
  human: printTeam,
});

export const teamAddCommand = operationCommand("team_member_add", {
  words: ["team", "add"],
  args: [
    { field: "name", name: "TEAM" },
    { field: "user", name: "USER" },
  ],
  examples: ["cairn team add platform dana"],
  human: printTeam,
});

export const teamRemoveCommand = operationCommand("team_member_remove", {
  words: ["team", "remove"],
  args: [
    { field: "name", name: "TEAM" },
    { field: "user", name: "USER" },
  ],
  examples: ["cairn team remove platform dana"],
  human: printTeam,
});
