import type { Cairn, OperationName } from "@cairn/core";
import type { Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { teamsPage } from "../pages/teams.js";
import { formIsGenuine } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";
import { signedIn } from "./pages.js";

/** Each button of /settings/teams: the operation it runs and the notice it returns to. */
const ACTIONS = {
  accept: { operation: "team_invitation_accept", notice: "joined" },
  decline: { operation: "team_invitation_decline", notice: "declined" },
  block: { operation: "team_block", notice: "blocked" },
  unblock: { operation: "team_unblock", notice: "unblocked" },
  leave: { operation: "team_leave", notice: "left" },
} as const satisfies Record<string, { operation: OperationName; notice: string }>;

const NOTICES: Readonly<Record<string, string>> = {
  invited: "Invited: they join when they accept.",
  joined: "Joined: the team's receipts are yours to read from now on.",
  declined: "Declined.",
  blocked: "Blocked: that team cannot invite you.",
  unblocked: "Unblocked: that team may invite you again.",
  left: "Left the team.",
};

/** /settings/teams (SPEC §37): answer invitations, leave, block and invite, each a POST with the form token. */
export function mountTeams(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/settings/teams",
    signedIn(cairn, async (c, ctx, chrome) => {
      const invitations = await cairn.invoke("team_invitation_list", ctx, { limit: 200 });
      const done = c.req.query("done");
      const notice = done !== undefined && Object.hasOwn(NOTICES, done) ? (NOTICES[done] ?? null) : null;
      return c.html(teamsPage({ teams: ctx.principal.teams, invitations: invitations.items, notice }, chrome));
    }),
  );

  app.post(
    "/settings/teams/invite",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
      await cairn.invoke("team_member_add", ctx, { name: field("team"), user: field("user") });
      return c.redirect("/settings/teams?done=invited", 303);
    }),
  );

  app.post(
    "/settings/teams/:name/:action",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const verb = c.req.param("action") ?? "";
      if (!Object.hasOwn(ACTIONS, verb)) return c.notFound();
      const { operation, notice } = ACTIONS[verb as keyof typeof ACTIONS];
      await cairn.invoke(operation, ctx, { name: c.req.param("name") });
      return c.redirect(`/settings/teams?done=${notice}`, 303);
    }),
  );
}
