import type { DoctorCheck } from "../doctor-check.js";
import type { Sql } from "../store/port.js";
import { actionStateSql, dueAtSql, isPendingSql, needsActionSql, openAskSql, outcomeStateSql, STALE_ACTION_DAYS, unexpiredSql } from "./rules.js";
import type { InboxSummary } from "./schemas.js";

const DAY_MS = 86_400_000;

/** What status and doctor report about the human loop, over some owners, from the one rule. */
export async function summarizeInbox(sql: Sql, owners: readonly string[], now: Date, user?: string): Promise<InboxSummary> {
  const params = [JSON.stringify(owners), now.toISOString()];
  const staleBefore = new Date(now.getTime() - STALE_ACTION_DAYS * DAY_MS).toISOString();
  const [actions, outcomes] = await Promise.all([
    sql.query<{ open: number | string; mine: number | string; stale: number | string; oldest_id: string | null; oldest_at: Date | string | null }>(
      `select count(*) as open, count(*) filter (where a.assignee = $4::text) as mine,
              count(*) filter (where a.created_at < $3::timestamptz) as stale,
              min(a.id) as oldest_id, min(a.created_at) as oldest_at from artifacts a
        where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${needsActionSql("a")}
          and ${unexpiredSql("a", "$2")} and ${actionStateSql("a")} = 'open'`,
      [...params, staleBefore, user ?? null],
    ),
    sql.query<{ id: string; n: number | string }>(
      `select a.id, count(*) over () as n from artifacts a
        where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${isPendingSql("a")}
          and ${unexpiredSql("a", "$2")} and ${outcomeStateSql("a", "$2")} = 'overdue'
        order by ${dueAtSql("a")}, a.id limit 1`,
      params,
    ),
  ]);
  const open = Number(actions[0]?.open ?? 0);
  const oldestAt = actions[0]?.oldest_at ?? null;
  return {
    open,
    mine: Number(actions[0]?.mine ?? 0),
    oldest_open_days: oldestAt === null ? null : Math.floor((now.getTime() - new Date(oldestAt).getTime()) / DAY_MS),
    oldest_open_id: actions[0]?.oldest_id ?? null,
    stale: Number(actions[0]?.stale ?? 0),
    overdue: Number(outcomes[0]?.n ?? 0),
    oldest_overdue_id: outcomes[0]?.id ?? null,
  };
}

/** Asks (SPEC §32) still open after STALE_ACTION_DAYS: how many, and the oldest. */
export interface StaleAsks {
  count: number;
  oldest: { id: string; title: string; days: number } | null;
}

/** The open asks over some owners created more than STALE_ACTION_DAYS ago, by the one rule of an open ask. */
export async function staleAsksOf(sql: Sql, owners: readonly string[], now: Date): Promise<StaleAsks> {
  const before = new Date(now.getTime() - STALE_ACTION_DAYS * DAY_MS).toISOString();
  const rows = await sql.query<{ id: string; title: string; created_at: Date | string; n: number | string }>(
    `select a.id, a.title, a.created_at, count(*) over () as n from artifacts a
      where a.owner in (select jsonb_array_elements_text($1::jsonb)) and ${openAskSql("a", "$2")}
        and ${unexpiredSql("a", "$2")} and a.created_at < $3::timestamptz
      order by a.created_at, a.id limit 1`,
    [JSON.stringify(owners), now.toISOString(), before],
  );
  const [oldest] = rows;
  if (!oldest) return { count: 0, oldest: null };
  const days = Math.floor((now.getTime() - new Date(oldest.created_at).getTime()) / DAY_MS);
  return { count: Number(oldest.n), oldest: { id: oldest.id, title: oldest.title, days } };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `Inbox: 3 open (1 yours), oldest 2 days` (and the overdue outcomes, when there are any). */
export function inboxLine(s: InboxSummary): string {
  const days = s.oldest_open_days ?? 0;
  const actions = s.open === 0 ? "nothing open" : `${s.open} open (${s.mine} yours), oldest ${days === 0 ? "under 1 day" : plural(days, "day")}`;
  return `Inbox: ${actions}${s.overdue > 0 ? `; ${plural(s.overdue, "outcome")} overdue` : ""}`;
}

/**
 * doctor's Inbox check: warn while an open action or an open ask is older than
 * STALE_ACTION_DAYS or an outcome is overdue, naming the oldest one and what to do about it.
 */
export function inboxCheck(s: InboxSummary, asks: StaleAsks = { count: 0, oldest: null }): DoctorCheck {
  const actions = `${plural(s.open, "open action")}${s.stale > 0 ? ` (${s.stale} older than ${STALE_ACTION_DAYS} days)` : ""}`;
  const waiting = asks.oldest
    ? `; ${plural(asks.count, "ask")} open more than ${STALE_ACTION_DAYS} days, the oldest "${asks.oldest.title}" (${plural(asks.oldest.days, "day")})`
    : "";
  const summary = `${actions}${waiting}; ${s.overdue === 0 ? "no outcome overdue" : `${plural(s.overdue, "outcome")} overdue`}.`;
  const next: string[] = [];
  if (asks.oldest) {
    const id = asks.oldest.id;
    next.push(`An agent may be waiting on ${id}: answer it on /a/${id} or with \`cairn decide ${id} OPTION\` (\`cairn read ${id}\` lists its options).`);
  }
  if (s.stale > 0 && s.oldest_open_id) {
    next.push(
      `Do what ${s.oldest_open_id} asks, then acknowledge it: \`cairn ack ${s.oldest_open_id}\` (POST /v1/artifacts/${s.oldest_open_id}/acknowledge); \`cairn inbox\` lists the rest.`,
    );
  }
  if (s.overdue > 0 && s.oldest_overdue_id) {
    next.push(`Measure the outcome of ${s.oldest_overdue_id} and leave a receipt with \`follows: ${s.oldest_overdue_id}\`; \`cairn outcomes\` lists the rest.`);
  }
  if (next.length === 0) return { name: "Inbox", status: "ok", summary };
  return { name: "Inbox", status: "warn", summary, next_action: next.join(" ") };
}
