import type { Store } from "../store/port.js";
import { registerScrapeGauge } from "./gauges.js";

/**
 * Past this many rows a backlog reads as the cap: the count is an alarm, not an inventory,
 * and counting further would make the scrape as slow as the backlog is long.
 */
export const BACKLOG_CAP = 100_000;

const ageSeconds = (oldest: Date | string | null | undefined, now: number) => (oldest ? Math.max(0, (now - new Date(oldest).getTime()) / 1000) : 0);

/**
 * The outbox: events written but not yet fanned out to subscriptions, and deliveries still
 * pending (first try or a retry). Both read through their partial or primary indexes.
 */
async function outbox(store: Store): Promise<{ fanout: number; deliveries: number; oldest: Date | string | null }> {
  const [row] = await store.query<{ fanout: number; deliveries: number; oldest_delivery: Date | null; oldest_fanout: Date | null }>(
    `select (select count(*)::int from (select 1 from fanout_queue limit ${BACKLOG_CAP}) f) as fanout,
            (select count(*)::int from (select 1 from deliveries where state = 'pending' limit ${BACKLOG_CAP}) d) as deliveries,
            (select min(created_at) from (select created_at from deliveries where state = 'pending' limit ${BACKLOG_CAP}) d) as oldest_delivery,
            (select min(e.created_at) from (select event_id from fanout_queue limit ${BACKLOG_CAP}) f join events e on e.id = f.event_id) as oldest_fanout`,
  );
  const times = [row?.oldest_delivery, row?.oldest_fanout].filter((t): t is Date => t !== null && t !== undefined).map((t) => new Date(t));
  const oldest = times.length === 0 ? null : new Date(Math.min(...times.map((t) => t.getTime())));
  return { fanout: row?.fanout ?? 0, deliveries: row?.deliveries ?? 0, oldest };
}

registerScrapeGauge({
  name: "cairn_outbox_backlog",
  help: `Undelivered outbox work: events not yet fanned out (stage="fanout") and webhook deliveries pending (stage="delivery"); capped at ${BACKLOG_CAP}.`,
  labelNames: ["stage"],
  async collect(store) {
    const o = await outbox(store);
    return [
      { labels: { stage: "fanout" }, value: o.fanout },
      { labels: { stage: "delivery" }, value: o.deliveries },
    ];
  },
});

registerScrapeGauge({
  name: "cairn_outbox_oldest_undelivered_age_seconds",
  help: "Age of the oldest event not yet delivered to every subscription (0 when nothing waits).",
  async collect(store) {
    return [{ value: ageSeconds((await outbox(store)).oldest, Date.now()) }];
  },
});

registerScrapeGauge({
  name: "cairn_notification_backlog",
  help: `Notifications waiting to be sent to a channel; capped at ${BACKLOG_CAP}.`,
  async collect(store) {
    const [row] = await store.query<{ n: number }>(
      `select count(*)::int as n from (select 1 from notifications where state = 'pending' limit ${BACKLOG_CAP}) p`,
    );
    return [{ value: row?.n ?? 0 }];
  },
});

/**
 * The PostgreSQL pool of this process. Labelled by driver so that on the embedded store,
 * which has one in-process connection and no pool, the series are absent rather than 0.
 */
registerScrapeGauge({
  name: "cairn_database_pool_connections",
  help: "Connections of this process's PostgreSQL pool, by state (busy, idle).",
  labelNames: ["driver", "state"],
  async collect(store) {
    const s = store.poolStats?.();
    if (!s) return [];
    return [
      { labels: { driver: store.driver, state: "busy" }, value: s.total - s.idle },
      { labels: { driver: store.driver, state: "idle" }, value: s.idle },
    ];
  },
});

registerScrapeGauge({
  name: "cairn_database_pool_waiting",
  help: "Requests waiting for a free connection of this process's PostgreSQL pool.",
  labelNames: ["driver"],
  async collect(store) {
    const s = store.poolStats?.();
    return s ? [{ labels: { driver: store.driver }, value: s.waiting }] : [];
  },
});

registerScrapeGauge({
  name: "cairn_database_pool_max_connections",
  help: "The most connections this process's PostgreSQL pool opens.",
  labelNames: ["driver"],
  async collect(store) {
    const s = store.poolStats?.();
    return s ? [{ labels: { driver: store.driver }, value: s.max }] : [];
  },
});
