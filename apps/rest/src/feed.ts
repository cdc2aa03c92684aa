import type { Cairn } from "@cairn/core";
import { feedPath } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RestEnv } from "./adapter.js";

/**
 * `GET /feeds/inbox.atom?key=…` (SPEC §27): the Atom feed of what waits on the key's
 * owner, for readers that cannot send headers. A wrong or replaced key is a 404 (the
 * same answer as no key at all), with no hint whether the key ever existed.
 */
export function mountFeedRoute(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  app.get(feedPath, async (c) => {
    const key = c.req.query("key") ?? "";
    const xml = key ? await cairn.notifications.feed(key) : null;
    if (xml === null) {
      return c.json(
        { error: { code: "not_found", message: "No feed for that key: make a new one with POST /v1/me/feed-key (`cairn notify feed-key`)." } },
        404,
      );
    }
    return c.body(xml, 200, { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "private, no-store", "referrer-policy": "no-referrer" });
  });
}
