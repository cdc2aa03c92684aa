import { readableInstant } from "../dates.js";
import type { DeliveryAttempt, EventDelivery, Subscription } from "./subscription-schemas.js";

/** A subscription's state as people read it (web, CLI): one word for the tone, one line of text. */
export interface SubscriptionState {
  tone: "ok" | "warn" | "fail";
  /** The tone as one short word for a badge: "ok", "failing" or "off". */
  badge: string;
  text: string;
}

const BADGES = { ok: "ok", warn: "failing", fail: "off" } as const;

const minute = readableInstant;

export function subscriptionStateOf(s: Subscription): SubscriptionState {
  if (!s.enabled) {
    const why = s.disabled_reason === "creator_left_team" ? `its creator ${s.created_by} left the team` : (s.disabled_reason ?? "disabled");
    return { tone: "fail", badge: BADGES.fail, text: `Disabled: ${why}` };
  }
  if (s.failing_since) return { tone: "warn", badge: BADGES.warn, text: `Failing since ${minute(s.failing_since)}` };
  return { tone: "ok", badge: BADGES.ok, text: "Delivering" };
}

/** One attempt in a line: the answer (or why there was none) and how long it took. */
export const attemptOutcomeOf = (a: DeliveryAttempt) => `${a.error ? a.error : `HTTP ${a.status_code}`} · ${a.latency_ms} ms`;

/** Where one event's delivery stands, in words. */
export function eventDeliveryTextOf(e: EventDelivery): string {
  const tries = `${e.attempts} attempt${e.attempts === 1 ? "" : "s"}`;
  if (e.state === "delivered") return `Delivered · ${tries}`;
  if (e.state === "failed") return `Failed · ${tries} · retries used up; redeliver or recover it`;
  if (e.in_flight) return `Sending now · ${tries}`;
  return `Waiting · ${tries}${e.next_attempt_at ? ` · next attempt ${minute(e.next_attempt_at)}` : ""}`;
}
