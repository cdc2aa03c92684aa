import { type Cairn, CairnError, readArtifactByShareToken } from "@cairn/core";
import { Hono } from "hono";
import { artifactPage, messagePage } from "./pages/artifact.js";
import { CONTENT_SECURITY_POLICY } from "./pages/layout.js";
import { STYLESHEET } from "./pages/styles.js";

/** The read-only web surface. Mounted beside the REST API by `cairn serve`. */
export function createWebApp(cairn: Cairn): Hono<{ Variables: { requestId: string | undefined } }> {
  // Mounted under the REST app, which sets the request id.
  const app = new Hono<{ Variables: { requestId: string | undefined } }>();

  app.use("/s/*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "private, no-store");
  });

  app.get("/assets/cairn.css", (c) => {
    c.header("Content-Type", "text/css; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(STYLESHEET);
  });

  app.get("/s/:token", async (c) => {
    try {
      const artifact = await readArtifactByShareToken(cairn.store, cairn.config, c.req.param("token"));
      return c.html(artifactPage(artifact));
    } catch (err) {
      if (err instanceof CairnError && err.code === "gone") {
        return c.html(messagePage("Expired", "This artifact has expired."), 410);
      }
      if (err instanceof CairnError && err.code === "validation_failed") {
        const issue = err.issues?.[0];
        return c.html(messagePage("Not a share link", `${issue?.field ?? "token"}: ${issue?.reason ?? "is not valid"}.`), 400);
      }
      if (err instanceof CairnError && err.code === "not_found") {
        return c.html(messagePage("Not found", "No artifact at this link."), 404);
      }
      throw err;
    }
  });

  app.onError((err, c) => {
    if (err instanceof CairnError && err.code === "unavailable") {
      return c.html(messagePage("Unavailable", "Cairn cannot reach its database right now. Try again shortly."), 503);
    }
    cairn.log.error({ code: "internal", surface: "web", requestId: c.get("requestId") }, err);
    return c.html(messagePage("Something went wrong", "The error was logged."), 500);
  });

  return app;
}
