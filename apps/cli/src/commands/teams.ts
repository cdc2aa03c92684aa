import type { Team, TeamAnswer, TeamInvitation } from "@cairn/core";
import type { Printer } from "../output.js";
import { operationCommand } from "./define.js";

function printTeam(team: Team, printer: Printer): void {
  printer.out(`${team.owner}  (${team.members.length} member${team.members.length === 1 ? "" : "s"})`);
  for (const member of team.members) printer.out(`  ${member}`);
  for (const name of team.invited) printer.out(`  ${name} (invited; joins on accepting)`);
}

const ANSWERS: Readonly<Record<TeamAnswer["state"], string>> = {
  declined: "Declined",
  left: "Left",
  blocked: "Blocked",
  unblocked: "Unblocked",
};

function printAnswer(answer: TeamAnswer, printer: Printer): void {
  printer.out(`${ANSWERS[answer.state]} ${answer.team}.${answer.blocked ? " It cannot invite you again (cairn team unblock undoes that)." : ""}`);
}

function printInvitations(list: { items: TeamInvitation[] }, printer: Printer): void {
  if (list.items.length === 0) printer.out("No invitations are waiting for you.");
  for (const item of list.items) {
    const name = item.team.slice("team:".length);
    printer.out(item.state === "invited" ? `${item.team}  invited by ${item.invited_by}  (cairn team accept ${name})` : `${item.team}  blocked`);
  }
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
  summary: "Invite a user to a team (an administrator adds them directly)",
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

const teamArg = [{ field: "name", name: "TEAM" }] as const;

export const teamInvitationsCommand = operationCommand("team_invitation_list", {
  words: ["team", "invitations"],
  options: [{ field: "limit" }, { field: "cursor" }],
  examples: ["cairn team invitations"],
  human: printInvitations,
});

export const teamAcceptCommand = operationCommand("team_invitation_accept", {
  words: ["team", "accept"],
  args: teamArg,
  examples: ["cairn team accept platform"],
  human: printTeam,
});

export const teamDeclineCommand = operationCommand("team_invitation_decline", {
  words: ["team", "decline"],
  args: teamArg,
  examples: ["cairn team decline platform"],
  human: printAnswer,
});

export const teamLeaveCommand = operationCommand("team_leave", {
  words: ["team", "leave"],
  args: teamArg,
  options: [{ field: "block" }],
  examples: ["cairn team leave platform", "cairn team leave platform --block"],
  human: printAnswer,
});

export const teamBlockCommand = operationCommand("team_block", {
  words: ["team", "block"],
  args: teamArg,
  examples: ["cairn team block platform"],
  human: printAnswer,
});

export const teamUnblockCommand = operationCommand("team_unblock", {
  words: ["team", "unblock"],
  args: teamArg,
  examples: ["cairn team unblock platform"],
  human: printAnswer,
});
