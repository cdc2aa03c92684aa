import { randomUUID } from "node:crypto";
import { type Cairn, clientAbortResponse, ifNoneMatchHits, isClientAbort, readerValidator, toCairnError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@cairn/core";
import { Hono } from "hono";
import { failureFor, type WebEnv } from "./adapter.js";
import { artifactPage } from "./pages/artifact.js";
import { COPY_SCRIPT } from "./pages/copy-script.js";
import { messagePage } from "./pages/layout.js";
import { ICON, STYLESHEET } from "./pages/styles.js";
import { mountArtifactActions } from "./routes/act.js";
import { mountAuth } from "./routes/auth.js";
import { mountInbox } from "./routes/inbox.js";
import { mountNotificationConfirm, mountNotificationSettings } from "./routes/notifications.js";
import { mountOAuthAuthorize } from "./routes/oauth.js";
import { mountPages, rawResponse } from "./routes/pages.js";
import { mountSettings } from "./routes/settings.js";
import { mountSubscriptions } from "./routes/subscriptions.js";
import { mountTeams } from "./routes/teams.js";
import { securityHeaders } from "./security-headers.js";
import { sessionOf } from "./session.js";
import { SharePageCache } from "./share-cache.js";

/**
 * The web surface: sign-in, the bin, inbox, artifact, run and doctor pages, and share
 * links. Server-rendered; the one script (the share link's Copy button, ADR 0033) is optional. Mounted beside the REST API by `cairn serve`.
 */
/** Whether the client prefers JSON to a page (it names application/json and not text/html). */
const wantsJson = (accept: string | undefined) => !!accept && accept.includes("application/json") && !accept.includes("text/html");

export function createWebApp(cairn: Cairn): Hono<WebEnv> {
  // Mounted under the REST app, which sets the request id.
  const app = new Hono<WebEnv>();

  // Mounted under REST, whose middleware set the request id (and answers it in X-Request-Id); standalone, the web sets its own the same way.
  app.use("*", async (c, next) => {
    if (c.get("requestId") === undefined) {
      const requestId = c.req.header("x-request-id")?.slice(0, 100) || randomUUID();
      c.set("requestId", requestId);
      c.header("X-Request-Id", requestId);
    }
    await next();
  });
  app.use("*", securityHeaders());
  // The default, set before the handler (which may set its own over it) for the reason in securityHeaders.
  app.use("*", async (c, next) => {
    c.header("Cache-Control", "private, no-store");
    await next();
  });

  app.get("/assets/cairn.css", (c) => {
    c.header("Content-Type", "text/css; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(STYLESHEET);
  });

  app.get("/assets/cairn.svg", (c) => {
    c.header("Content-Type", "image/svg+xml");
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(ICON);
  });
  app.get("/assets/copy.js", (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(COPY_SCRIPT);
  });
  // Browsers ask for it whatever the page says.
  app.get("/favicon.ico", (c) => c.redirect("/assets/cairn.svg", 301));

  mountAuth(app, cairn);
  mountPages(app, cairn);
  mountInbox(app, cairn);
  mountSubscriptions(app, cairn);
  mountArtifactActions(app, cairn);
  mountOAuthAuthorize(app, cairn);
  mountSettings(app, cairn);
  mountNotificationConfirm(app, cairn);
  mountNotificationSettings(app, cairn);
  mountTeams(app, cairn);

  const sharePages = new SharePageCache();
  app.get("/s/:token", async (c) => {
    const context = cairn.linkContext("web");
    const artifact = await cairn.invokeLink("share_read", context, { token: c.req.param("token") });
    const now = context.now();
    // A client that asks for JSON (`cairn read <share link>`) gets the artifact object a link holder may see.
    const json = wantsJson(c.req.header("accept"));
    const etag = readerValidator(artifact, now, json ? "json" : "html");
    // Kept by the browser, but asked about again each time: the card's state is live.
    c.header("Cache-Control", "private, no-cache");
    c.header("ETag", etag);
    c.header("Vary", "Accept");
    if (ifNoneMatchHits(c.req.header("if-none-match"), etag)) return c.body(null, 304);
    if (json) return c.json(artifact);
    const page = sharePages.get(etag, () => String(artifactPage(artifact, { rawHref: `/s/${encodeURIComponent(c.req.param("token"))}/raw` }, null, now)));
    return c.html(page);
  });
  app.get("/s/:token/raw", async (c) => rawResponse(c, await cairn.invokeLink("share_read", cairn.linkContext("web"), { token: c.req.param("token") })));

  app.onError(async (err, c) => {
    if (isClientAbort(err, c.req.raw.signal)) {
      return clientAbortResponse(cairn.log, { surface: "web", method: c.req.method, requestId: c.get("requestId") });
    }
    const { failure, detail } = failureFor(cairn, c, err);
    if (toCairnError(err).code === "unavailable") c.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const requestId = c.get("requestId");
    if (c.req.path.startsWith("/s/") && wantsJson(c.req.header("accept"))) return c.json({ error: toCairnError(err).toBody(requestId) }, failure.status);
    const session = await sessionOf(cairn, c).catch(() => null);
    const chrome = session ? { user: session.principal.user.name, formToken: session.formToken } : null;
    return c.html(messagePage(failure.title, detail ? `${failure.message} ${detail}` : failure.message, chrome, requestId), failure.status);
  });

  return app;
}
