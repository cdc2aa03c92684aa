import { type Cairn, CONFIRMATIONS } from "@cairn/core";
import type { Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { INBOX_STATES, inboxPage } from "../pages/inbox.js";
import { formIsGenuine } from "../session.js";
import { formLimit, refusedForm, safeNext } from "./auth.js";
import { signedIn } from "./pages.js";

const INBOX_PAGE_SIZE = 25;

/** The inbox and the web's one write: a person's acknowledgement, through a form with a form token. */
export function mountInbox(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/inbox",
    signedIn(cairn, async (c, ctx, chrome) => {
      const asked = c.req.query("state");
      const tab = INBOX_STATES.find((s) => s.value === asked) ?? INBOX_STATES[0];
      const cursor = c.req.query("cursor");
      const page = await cairn.invoke("inbox_list", ctx, {
        state: tab.state,
        ...(tab.assignee && { assignee: tab.assignee }),
        limit: INBOX_PAGE_SIZE,
        ...(cursor && { cursor }),
      });
      const notice = c.req.query("done") === "acknowledged" ? CONFIRMATIONS.acknowledged() : null;
      return c.html(inboxPage(page.items, tab.value, page.next_cursor, chrome, notice));
    }),
  );

  app.post(
    "/a/:id/acknowledge",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const note = typeof form.note === "string" && form.note.trim() !== "" ? form.note : undefined;
      const id = c.req.param("id") ?? "";
      await cairn.invoke("artifact_acknowledge", ctx, { id, ...(note !== undefined && { note }) });
      // The page it returns to says it was done (SPEC §20).
      const next = new URL(safeNext(typeof form.next === "string" ? form.next : `/a/${encodeURIComponent(id)}`), "http://cairn.invalid");
      next.searchParams.set("done", "acknowledged");
      return c.redirect(`${next.pathname}${next.search}`, 303);
    }),
  );
}
