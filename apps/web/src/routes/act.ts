import {
  type Artifact,
  actsFor,
  askViewOf,
  assignableUsers,
  type Cairn,
  CONFIRMATIONS,
  type ConfirmationName,
  mayAcknowledge,
  type ServiceContext,
} from "@cairn/core";
import type { Context, Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { type ArtifactPageParts, artifactActions, artifactPage, commentsSection } from "../pages/artifact.js";
import { acknowledgeForm } from "../pages/inbox.js";
import { formIsGenuine, type WebSession } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";
import { linkedTitle, signedIn } from "./pages.js";

/** Linked receipts whose titles the page looks up, at most. */
const TITLE_LOOKUPS = 10;

/** Who may be assigned, by core's rule (SPEC §20); the team's members are read as the viewer may. */
const assigneeChoices = (cairn: Cairn, ctx: ServiceContext, owner: string) =>
  assignableUsers(owner, async (name) => (await cairn.invoke("team_read", ctx, { name })).members);

/** The teams the viewer may move it to (SPEC §34): theirs, when they act for its owner; none for anyone else. */
const moveTargets = (ctx: ServiceContext, artifact: Artifact) =>
  actsFor(ctx.principal, artifact.owner) ? ctx.principal.teams.map((t) => `team:${t}`).filter((t) => t !== artifact.owner) : [];

/** Everything /a/:id shows a signed-in person beyond the artifact: titles, forms, the last confirmation. */
export async function artifactPageParts(cairn: Cairn, ctx: ServiceContext, c: Context, artifact: Artifact, session: WebSession): Promise<ArtifactPageParts> {
  const id = encodeURIComponent(artifact.id);
  const titles = new Map<string, string>();
  const linked = [...(artifact.follows ? [artifact.follows.id] : []), ...artifact.followed_by].slice(0, TITLE_LOOKUPS);
  for (const other of linked) {
    const title = await linkedTitle(cairn, ctx, other);
    if (title !== null) titles.set(other, title);
  }
  const done = c.req.query("done");
  const comments = await cairn.invoke("comment_list", ctx, { id: artifact.id, limit: COMMENTS_SHOWN });
  // An open ask is answered with its buttons (which also acknowledge), not with Acknowledge.
  const ask = askViewOf(artifact, ctx.now());
  const ackForm =
    mayAcknowledge(artifact, session.principal.user.name) && ask?.state !== "open" ? acknowledgeForm(artifact.id, session.formToken, `/a/${id}`) : "";
  return {
    rawHref: `/a/${id}/raw`,
    underChip: ackForm,
    askForm: ask?.state === "open" ? { id: artifact.id, formToken: session.formToken } : null,
    notice: done !== undefined && Object.hasOwn(CONFIRMATIONS, done) ? CONFIRMATIONS[done as ConfirmationName](artifact) : null,
    actions: artifactActions(artifact, await assigneeChoices(cairn, ctx, artifact.owner), session.formToken, moveTargets(ctx, artifact)),
    titles,
    comments: commentsSection(
      artifact.id,
      comments.items,
      comments.next_cursor !== null,
      { name: session.principal.user.name, owner: artifact.owner === `user:${session.principal.user.name}` || session.principal.user.is_admin },
      session.formToken,
    ),
  };
}

/** Comments shown on the artifact page, oldest first. */
const COMMENTS_SHOWN = 100;

/**
 * The artifact page, and Retain, Assign and Move from it: each a form with the form token, each
 * confirmed on the page it returns to (Acknowledge is in routes/inbox.ts).
 */
export function mountArtifactActions(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/a/:id",
    signedIn(cairn, async (c, ctx, chrome, session) => {
      const artifact = await cairn.invoke("artifact_read", ctx, { id: c.req.param("id") });
      return c.html(artifactPage(artifact, await artifactPageParts(cairn, ctx, c, artifact, session), chrome, ctx.now()));
    }),
  );
  app.post(
    "/a/:id/retain",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const kept = await cairn.invoke("artifact_retain", ctx, { id: c.req.param("id") ?? "" });
      return c.redirect(`/a/${encodeURIComponent(kept.id)}?done=retained`, 303);
    }),
  );
  app.post(
    "/a/:id/decide",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const comment = typeof form.comment === "string" && form.comment.trim() !== "" ? form.comment : undefined;
      const option = typeof form.option === "string" ? form.option : "";
      // The same operation as every surface; `via` is the web's because the surface is.
      const decided = await cairn.invoke("artifact_decide", ctx, { id: c.req.param("id") ?? "", option, ...(comment !== undefined && { comment }) });
      return c.redirect(`/a/${encodeURIComponent(decided.id)}?done=decided`, 303);
    }),
  );
  app.post(
    "/a/:id/assign",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const name = typeof form.assignee === "string" && form.assignee !== "" ? form.assignee : null;
      const assigned = await cairn.invoke("artifact_assign", ctx, { id: c.req.param("id") ?? "", assignee: name });
      return c.redirect(`/a/${encodeURIComponent(assigned.id)}?done=assigned`, 303);
    }),
  );
  app.post(
    "/a/:id/transfer",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const owner = typeof form.owner === "string" ? form.owner : "";
      const moved = await cairn.invoke("artifact_transfer", ctx, { id: c.req.param("id") ?? "", owner });
      return c.redirect(`/a/${encodeURIComponent(moved.id)}?done=transferred`, 303);
    }),
  );
  app.post(
    "/a/:id/comments",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const body = typeof form.body === "string" ? form.body : "";
      const made = await cairn.invoke("comment_create", ctx, { id: c.req.param("id") ?? "", body });
      return c.redirect(`/a/${encodeURIComponent(made.artifact_id)}?done=commented#${made.id}`, 303);
    }),
  );
  app.post(
    "/a/:id/comments/:cid/delete",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const gone = await cairn.invoke("comment_delete", ctx, { id: c.req.param("id") ?? "", cid: c.req.param("cid") ?? "" });
      return c.redirect(`/a/${encodeURIComponent(gone.artifact_id)}?done=uncommented`, 303);
    }),
  );
}
