import { type Cairn, type ServiceContext, TRIGGERS, toCairnError } from "@cairn/core";
import type { Context, Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import type { Chrome } from "../pages/layout.js";
import { confirmDonePage, confirmPage, confirmUnknownPage, notificationSettingsPage } from "../pages/notifications.js";
import { formIsGenuine, isCrossSite } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";
import { signedIn } from "./pages.js";

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

const NOTICES: Record<string, string> = {
  added: "Channel added.",
  "added-email": "Channel added: open the link mailed to the address and press Confirm.",
  tested: "Test message queued: it arrives within seconds.",
  removed: "Channel removed.",
  saved: "Settings saved.",
};

/** /settings/notifications: a signed-in person's channels, triggers and feed key (SPEC §27), each change a POST with the form token. */
export function mountNotificationSettings(app: Hono<WebEnv>, cairn: Cairn): void {
  const base = "/settings/notifications";
  const show = async (c: Context<WebEnv>, ctx: ServiceContext, chrome: Chrome, extra: { error?: string; feedUrl?: string } = {}) => {
    const [channels, settings] = await Promise.all([cairn.invoke("channel_list", ctx, {}), cairn.invoke("notifications_get", ctx, {})]);
    const done = c.req.query("done");
    return c.html(
      notificationSettingsPage(
        {
          channels: channels.items,
          settings,
          mail: cairn.config.mail !== undefined,
          notice: done ? (NOTICES[done] ?? null) : null,
          error: extra.error ?? null,
          feedUrl: extra.feedUrl ?? null,
        },
        chrome,
      ),
      extra.error ? 422 : 200,
    );
  };
  app.get(
    base,
    signedIn(cairn, (c, ctx, chrome) => show(c, ctx, chrome)),
  );

  /** A form post: checks the form token, runs `act`; a refusal of the input is shown on the page, anything else goes to the error page. */
  const post = (path: string, act: (form: Record<string, string>, ctx: ServiceContext, c: Context<WebEnv>) => Promise<string | { feedUrl: string }>) =>
    app.post(
      path,
      formLimit,
      signedIn(cairn, async (c, ctx, chrome, session) => {
        const raw = await c.req.parseBody();
        const form = Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string"));
        if (!formIsGenuine(c, session, form.csrf)) return c.html(refusedForm(), 403);
        try {
          const done = await act(form, ctx, c);
          if (typeof done !== "string") return show(c, ctx, chrome, { feedUrl: done.feedUrl });
          return c.redirect(`${base}?done=${done}`, 303);
        } catch (err) {
          const e = toCairnError(err);
          if (e.code !== "validation_failed") throw err;
          return show(c, ctx, chrome, { error: e.message });
        }
      }),
    );

  post(`${base}/channels`, async (form, ctx) => {
    const kind = form.kind ?? "";
    await cairn.invoke("channel_create", ctx, { kind, target: form.target ?? "" });
    return kind === "email" ? "added-email" : "added";
  });
  post(`${base}/channels/:id/test`, async (_f, ctx, c) => {
    await cairn.invoke("channel_test", ctx, { id: c.req.param("id") ?? "" });
    return "tested";
  });
  post(`${base}/channels/:id/remove`, async (_f, ctx, c) => {
    await cairn.invoke("channel_delete", ctx, { id: c.req.param("id") ?? "" });
    return "removed";
  });
  post(`${base}/triggers`, async (form, ctx) => {
    const triggers = Object.fromEntries(TRIGGERS.map((t) => [t, form[t] === "on"]));
    const remind = Number(form.remind_after);
    const hour = Number(form.digest_hour);
    await cairn.invoke("notifications_set", ctx, {
      triggers,
      ...(form.remind_after && { remind_after: Number.isFinite(remind) ? remind : form.remind_after }),
      ...(form.digest_hour && { digest_hour: Number.isFinite(hour) ? hour : form.digest_hour }),
    });
    return "saved";
  });
  post(`${base}/feed-key`, async (_f, ctx) => ({ feedUrl: (await cairn.invoke("feed_key_rotate", ctx, {})).url }));
}
