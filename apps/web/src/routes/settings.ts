import { type Cairn, CairnError } from "@cairn/core";
import type { Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { settingsPage } from "../pages/settings.js";
import { formIsGenuine } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";
import { signedIn } from "./pages.js";

const NOTICES: Readonly<Record<string, string>> = {
  revoked: "Revoked: its next request is refused.",
};

/** Settings (SPEC §26): the person's connected apps and tokens, and Revoke for each (the token_revoke operation). */
export function mountSettings(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/settings",
    signedIn(cairn, async (c, ctx, chrome, session) => {
      const apps = await cairn.oauth.connectedApps(session.principal);
      const tokens = await cairn.invoke("token_list", ctx, { limit: 100 });
      const done = c.req.query("done");
      return c.html(settingsPage(apps, tokens.items, done !== undefined && Object.hasOwn(NOTICES, done) ? (NOTICES[done] ?? null) : null, chrome));
    }),
  );

  app.post(
    "/settings/tokens/:id/revoke",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      try {
        await cairn.invoke("token_revoke", ctx, { id: c.req.param("id") });
      } catch (err) {
        // A malformed id is a token that is not there, as for any other id not yours.
        if (err instanceof CairnError && err.code === "validation_failed") throw new CairnError("not_found", "No such token.");
        throw err;
      }
      return c.redirect("/settings?done=revoked", 303);
    }),
  );
}
