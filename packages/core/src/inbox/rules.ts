import { DEFAULT_HUMAN_ACTION } from "../receipt/schemas.js";

/**
 * The one rule of the human loop (SPEC §15, §20): when an action waits on a person and
 * when an outcome is due. Written once as SQL — so lists, counts, doctor, status, search's
 * `outcome=overdue`, the acknowledge check and the measure_due job all filter by the very
 * same expression — and once as a pure function of the same facts, for a page that already
 * holds an artifact object (the web's bin and card). Adapters never decide a state.
 *
 * - An **action** is `open` while the receipt's `human_action` is not `Nothing` and no
 *   human has acknowledged it, then `acknowledged`; a receipt asking nothing has none.
 * - An **outcome** of a pending receipt is `closed` (measured) once a receipt of the same
 *   owner follows it — whatever its date; otherwise `overdue` from its due time (a
 *   date-only `measure_at` is due from the start of that day, UTC) and `upcoming` before.
 *   A followed receipt is never due or overdue anywhere.
 *
 * Each SQL function takes the alias of the `artifacts` row; the outcome rule also takes the
 * placeholder that holds "now" (ISO 8601), so tests can move the clock.
 */
export const ACTION_STATES = ["open", "acknowledged"] as const;
export type ActionState = (typeof ACTION_STATES)[number];

export const OUTCOME_STATES = ["overdue", "upcoming", "closed"] as const;
export type OutcomeState = (typeof OUTCOME_STATES)[number];

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date-only `measure_at` is due from the start of that day (UTC); a date-time at that instant. */
export function measureDueAt(measureAt: string): Date {
  return new Date(DATE_ONLY.test(measureAt) ? `${measureAt}T00:00:00Z` : measureAt);
}

type OutcomeFacts = { outcome?: { status?: string; measure_at?: string } } | null | undefined;

/** The due time of a receipt's metadata (stored as `artifacts.measure_due_at`), or null when it names no `measure_at`. */
export function dueAtOf(metadata: OutcomeFacts): Date | null {
  const measureAt = metadata?.outcome?.measure_at;
  return typeof measureAt === "string" ? measureDueAt(measureAt) : null;
}

/**
 * The rule as a pure function, for one receipt whose followers are known: null when its
 * outcome is not pending (or it is no receipt), `closed` once followed.
 */
export function outcomeStateOf(metadata: OutcomeFacts, followed: boolean, now: Date): OutcomeState | null {
  if (metadata?.outcome?.status !== "pending") return null;
  if (followed) return "closed";
  const due = dueAtOf(metadata);
  return due !== null && due.getTime() <= now.getTime() ? "overdue" : "upcoming";
}

/**
 * Whether a receipt's `human_action` asks a person for something: the one rule in
 * TypeScript (the card, the inbox's words, events), beside `needsActionSql` for the same in SQL.
 * `Nothing` is what the server stores when the field is omitted; metadata without one
 * (a plain artifact) asks nothing, as in SQL.
 */
export const asksAPerson = (humanAction: string | null | undefined) => typeof humanAction === "string" && humanAction !== DEFAULT_HUMAN_ACTION;

/** Whether a receipt asks a person for something, in SQL (see `asksAPerson`). */
export function needsActionSql(a: string): string {
  return `(${a}.metadata is not null and (${a}.metadata->>'human_action') is not null and (${a}.metadata->>'human_action') <> '${DEFAULT_HUMAN_ACTION}')`;
}

export function actionStateSql(a: string): string {
  return `(case when not ${needsActionSql(a)} then null
    when exists (select 1 from acknowledgements k where k.artifact_id = ${a}.id) then 'acknowledged'
    else 'open' end)`;
}

/** When a pending receipt's outcome comes due; null for any other receipt. Equal to `measure_due_at` (both from measureDueAt's reading). */
export function dueAtSql(a: string): string {
  return `cairn_measure_due_at(${a}.metadata->'outcome'->>'measure_at')`;
}

export function isPendingSql(a: string): string {
  return `((${a}.metadata->'outcome'->>'status') = 'pending')`;
}

/** A receipt of the same owner follows it (§9's link rule, checked again): its outcome is measured. */
export function followedSql(a: string): string {
  return `exists (select 1 from artifacts f where f.follows = ${a}.id and f.owner = ${a}.owner)`;
}

export function outcomeStateSql(a: string, now: string): string {
  return `(case when not coalesce(${isPendingSql(a)}, false) then null
    when ${followedSql(a)} then 'closed'
    when ${dueAtSql(a)} <= ${now}::timestamptz then 'overdue'
    else 'upcoming' end)`;
}

/**
 * `outcomeStateSql(a, now) = 'overdue'`, written so that search's owner-led due index
 * (`artifacts_owner_due_idx` on the stored `measure_due_at`) serves it.
 */
export function overdueSql(a: string, now: string): string {
  return `(${isPendingSql(a)} and ${a}.measure_due_at <= ${now}::timestamptz and not ${followedSql(a)})`;
}

/** Expired artifacts read as gone everywhere, so nothing expired waits on anyone. */
export function unexpiredSql(a: string, now: string): string {
  return `(${a}.retained or ${a}.expires_at is null or ${a}.expires_at > ${now}::timestamptz)`;
}

/**
 * An ask nobody has answered and whose `answer_by` has not passed (SPEC §32), in SQL; the
 * same rule as `decisionStateOf` (view/decision.ts), which also reads an ask as expired
 * before the expiry job has marked it.
 */
export function openAskSql(a: string, now: string): string {
  return `(${a}.ask is not null and ${a}.decision is null and (${a}.answer_by is null or ${a}.answer_by > ${now}::timestamptz))`;
}

/** Open actions older than this make doctor warn. */
export const STALE_ACTION_DAYS = 3;
