import type { Cairn } from "@cairn/core";
import type { Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { confirmDonePage, confirmPage, confirmUnknownPage } from "../pages/notifications.js";
import { isCrossSite } from "../session.js";
import { formLimit } from "./auth.js";

/**
 * The confirmation link mailed to a new address (SPEC §27): GET shows a button and changes
 * nothing (mail scanners and link previews fetch links); the button's POST confirms. The
 * code in the path is the capability, so no sign-in is needed; a cross-site POST is refused.
 */
export function mountNotificationConfirm(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get("/notifications/confirm/:code", async (c) => {
    const found = await cairn.notifications.peekConfirmation(c.req.param("code"));
    if (!found) return c.html(confirmUnknownPage(), 404);
    return c.html(confirmPage(c.req.param("code"), found.target, found.state !== "pending"));
  });
  app.post("/notifications/confirm/:code", formLimit, async (c) => {
    if (isCrossSite(c)) return c.html(confirmUnknownPage(), 403);
    const done = await cairn.notifications.confirm(c.req.param("code"));
    if (done.state === "unknown" || !done.target) return c.html(confirmUnknownPage(), 404);
    return c.html(confirmDonePage(done.target));
  });
}
