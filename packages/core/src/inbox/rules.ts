import { DEFAULT_HUMAN_ACTION } from "../receipt/schemas.js";

/**
 * The one rule of the human loop (SPEC §15), as SQL so that lists, counts, doctor, status,
 * the acknowledge check and the measure_due job all filter by the very same expression.
 * Adapters never decide a state; they show the `state` core returns.
 *
 * - An **action** is `open` while the receipt's `human_action` is not `Nothing` and no
 *   human has acknowledged it, then `acknowledged`; a receipt asking nothing has none.
 * - An **outcome** of a pending receipt is `closed` once a receipt of the same owner
 *   follows it; otherwise `overdue` from `cairn_measure_due_at(measure_at)` (a date-only
 *   value is due from the start of that day, UTC) and `upcoming` before.
 *
 * Each function takes the alias of the `artifacts` row; the outcome rule also takes the
 * placeholder that holds "now" (ISO 8601), so tests can move the clock.
 */
export const ACTION_STATES = ["open", "acknowledged"] as const;
export type ActionState = (typeof ACTION_STATES)[number];

export const OUTCOME_STATES = ["overdue", "upcoming", "closed"] as const;
export type OutcomeState = (typeof OUTCOME_STATES)[number];

/** Whether a receipt asks a person for something. `Nothing` is what the server stores when the field is omitted. */
export function needsActionSql(a: string): string {
  return `(${a}.metadata is not null and (${a}.metadata->>'human_action') is not null and (${a}.metadata->>'human_action') <> '${DEFAULT_HUMAN_ACTION}')`;
}

export function actionStateSql(a: string): string {
  return `(case when not ${needsActionSql(a)} then null
    when exists (select 1 from acknowledgements k where k.artifact_id = ${a}.id) then 'acknowledged'
    else 'open' end)`;
}

/** When a pending receipt's outcome comes due; null for any other receipt. */
export function dueAtSql(a: string): string {
  return `cairn_measure_due_at(${a}.metadata->'outcome'->>'measure_at')`;
}

export function isPendingSql(a: string): string {
  return `((${a}.metadata->'outcome'->>'status') = 'pending')`;
}

export function outcomeStateSql(a: string, now: string): string {
  return `(case when not coalesce(${isPendingSql(a)}, false) then null
    when exists (select 1 from artifacts f where f.follows = ${a}.id and f.owner = ${a}.owner) then 'closed'
    when ${dueAtSql(a)} <= ${now}::timestamptz then 'overdue'
    else 'upcoming' end)`;
}

/** Expired artifacts read as gone everywhere, so nothing expired waits on anyone. */
export function unexpiredSql(a: string, now: string): string {
  return `(${a}.retained or ${a}.expires_at is null or ${a}.expires_at > ${now}::timestamptz)`;
}

/** Open actions older than this make doctor warn. */
export const STALE_ACTION_DAYS = 3;
