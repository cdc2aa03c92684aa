import type { TeamInvitation } from "@cairn/core";
import { html } from "hono/html";
import { type Chrome, layout, type Markup } from "./layout.js";
import { settingsTabs } from "./settings.js";

export interface TeamsPageParts {
  /** The teams the person belongs to (names, without `team:`). */
  teams: readonly string[];
  invitations: readonly TeamInvitation[];
  notice: string | null;
}

const bare = (owner: string) => owner.slice("team:".length);

/** One button that posts the form token to /settings/teams/NAME/ACTION. */
const action = (team: string, verb: string, label: string, formToken: string, extra = "") =>
  html`<form class="revoke" method="post" action="/settings/teams/${encodeURIComponent(team)}/${verb}"><input type="hidden" name="csrf" value="${formToken}"><button class="quiet" type="submit" aria-label="${label} team:${team}"${extra ? html` data-confirm="${extra}"` : ""}>${label}</button></form>`;

function inviteForm(teams: readonly string[], formToken: string) {
  if (teams.length === 0) return html`<p class="muted">You belong to no team yet: create one with <code>cairn team create NAME</code>.</p>`;
  return html`<form class="invite" method="post" action="/settings/teams/invite">
<input type="hidden" name="csrf" value="${formToken}">
<label>Team <select name="team">${teams.map((t) => html`<option value="${t}">team:${t}</option>`)}</select></label>
<label>User <input name="user" required maxlength="64" autocomplete="off" placeholder="dana"></label>
<button type="submit">Invite</button>
</form>
<p class="meta">They join when they accept. Until then the team's receipts neither notify nor assign them.</p>`;
}

/** /settings/teams (SPEC §37): invitations to answer, teams blocked, the person's teams with Leave, and Invite. */
export function teamsPage(parts: TeamsPageParts, chrome: Chrome): Markup {
  const waiting = parts.invitations.filter((i) => i.state === "invited");
  const blocked = parts.invitations.filter((i) => i.state === "blocked");
  const f = chrome.formToken;
  return layout(
    "Teams",
    html`<h1>Settings</h1>
${settingsTabs("/settings/teams")}
${parts.notice ? html`<p class="notice" role="status">${parts.notice}</p>` : ""}
<h2>Invitations</h2>
${
  waiting.length === 0
    ? html`<p class="muted">No invitations are waiting for you.</p>`
    : html`<ol class="rows" aria-label="Invitations">${waiting.map(
        (i) => html`<li>
<span class="title">${i.team}</span>
<span class="tags"><span>invited by ${i.invited_by}</span><span><time datetime="${i.at}">${i.at.slice(0, 16).replace("T", " ")} UTC</time></span></span>
<span class="actions">${action(bare(i.team), "accept", "Accept", f)}${action(bare(i.team), "decline", "Decline", f)}${action(bare(i.team), "block", "Block", f)}</span>
</li>`,
      )}</ol>`
}
<h2>Your teams</h2>
${
  parts.teams.length === 0
    ? ""
    : html`<ol class="rows" aria-label="Your teams">${parts.teams.map(
        (t) => html`<li><span class="title">team:${t}</span><span class="actions">${action(t, "leave", "Leave", f)}</span></li>`,
      )}</ol>`
}
${inviteForm(parts.teams, f)}
${
  blocked.length === 0
    ? ""
    : html`<h2>Blocked teams</h2>
<p class="meta">These teams cannot invite you.</p>
<ol class="rows" aria-label="Blocked teams">${blocked.map(
        (i) => html`<li><span class="title">${i.team}</span><span class="actions">${action(bare(i.team), "unblock", "Unblock", f)}</span></li>`,
      )}</ol>`
}`,
    { ...chrome, current: "settings" },
  );
}
