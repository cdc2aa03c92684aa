/**
 * When a pending outcome falls due, and when it is overdue (SPEC §15, §16). The one rule
 * every list uses: search's `outcome=overdue`, the inbox and the `measure_due` job.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date-only `measure_at` is due from the start of that day (UTC); a date-time at that instant. */
export function measureDueAt(measureAt: string): Date {
  return new Date(DATE_ONLY.test(measureAt) ? `${measureAt}T00:00:00Z` : measureAt);
}

/** The stored due time of a receipt's metadata (`artifacts.measure_due_at`), or null when it names no `measure_at`. */
export function dueAtOf(metadata: { outcome?: { measure_at?: string } } | null | undefined): Date | null {
  const measureAt = metadata?.outcome?.measure_at;
  return typeof measureAt === "string" ? measureDueAt(measureAt) : null;
}

/**
 * SQL condition: the artifact `alias` is overdue at the timestamptz parameter `now` —
 * pending, due, and no receipt follows it. Uses artifacts_owner_due_idx and
 * artifacts_follows_idx.
 */
export function overdueSql(alias: string, now: string): string {
  return `(${alias}.metadata->'outcome'->>'status' = 'pending' and ${alias}.measure_due_at <= ${now}
    and not exists (select 1 from artifacts f where f.follows = ${alias}.id and f.owner = ${alias}.owner))`;
}

/** Pure form of the same rule, for one receipt whose followers are known. */
export function isOverdue(
  metadata: { outcome?: { status?: string; measure_at?: string } } | null | undefined,
  hasFollower: boolean,
  now: Date,
): boolean {
  const due = dueAtOf(metadata);
  return metadata?.outcome?.status === "pending" && due !== null && due.getTime() <= now.getTime() && !hasFollower;
}
