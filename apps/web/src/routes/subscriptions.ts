import type { Cairn, DeliveryAttempt, EventDelivery } from "@cairn/core";
import type { Hono } from "hono";
import type { WebEnv } from "../adapter.js";
import { subscriptionPage, subscriptionsPage } from "../pages/subscriptions.js";
import { signedIn } from "./pages.js";

const LIST_PAGE_SIZE = 25;
const LAST_ATTEMPTS = 3;
const EVENT_LOG = 50;
const LATEST_ATTEMPTS = 20;

/** The read-only webhook pages (SPEC §19): the owner's subscriptions and one subscription's event log. */
export function mountSubscriptions(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/subscriptions",
    signedIn(cairn, async (c, ctx, chrome) => {
      const cursor = c.req.query("cursor");
      const page = await cairn.invoke("subscription_list", ctx, { limit: LIST_PAGE_SIZE, ...(cursor && { cursor }) });
      const rows = [];
      for (const subscription of page.items) {
        const attempts = await cairn.invoke("subscription_deliveries", ctx, { id: subscription.id, limit: LAST_ATTEMPTS });
        rows.push({ subscription, attempts: attempts.items as DeliveryAttempt[] });
      }
      return c.html(subscriptionsPage(rows, page.next_cursor, chrome));
    }),
  );

  app.get(
    "/subscriptions/:id",
    signedIn(cairn, async (c, ctx, chrome) => {
      const id = c.req.param("id");
      const subscription = await cairn.invoke("subscription_read", ctx, { id });
      const events = await cairn.invoke("subscription_deliveries", ctx, { id, view: "events", limit: EVENT_LOG });
      const attempts = await cairn.invoke("subscription_deliveries", ctx, { id, limit: LATEST_ATTEMPTS });
      return c.html(subscriptionPage(subscription, events.items as EventDelivery[], events.next_cursor !== null, attempts.items as DeliveryAttempt[], chrome));
    }),
  );
}
