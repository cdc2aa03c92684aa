import { resolveInstant } from "../dates.js";
import { idFloorAt } from "../ids.js";
import { overdueSql } from "../inbox/rules.js";
import { DEFAULT_HUMAN_ACTION } from "../receipt/schemas.js";
import type { ArtifactSearchInput } from "./schemas.js";

/** A WHERE clause under construction: each condition appends its parameters and refers to them by number. */
export class Conditions {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** Adds a parameter and returns its placeholder (`$3`). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(sql: string): void {
    this.parts.push(sql);
  }

  get sql(): string {
    return this.parts.join("\n        and ");
  }
}

/**
 * The search filters as SQL over `artifacts a`, AND-combined. Each maps onto an index of
 * migration 0008 (ADR 0020): owner-led composites for schema, outcome, due time and
 * creation time, a partial index for receipts that need a person.
 */
export function addSearchFilters(where: Conditions, input: ArtifactSearchInput, now: Date): void {
  if (input.owner !== undefined) where.add(`a.owner = ${where.param(input.owner)}`);
  if (input.tag !== undefined) where.add(`a.tags ? ${where.param(input.tag)}::text`);
  // The full-text query `q` is the caller's (searchRows): it runs first, on its GIN index.
  if (input.schema !== undefined) where.add(`a.metadata is not null and a.metadata->>'schema' = ${where.param(input.schema)}`);
  if (input.human_action === "needed") {
    where.add(`a.metadata->>'human_action' <> ${where.param(DEFAULT_HUMAN_ACTION)}`);
  } else if (input.human_action === "none") {
    where.add(`a.metadata->>'human_action' = ${where.param(DEFAULT_HUMAN_ACTION)}`);
  }
  if (input.outcome === "overdue") {
    where.add(`a.metadata is not null and ${overdueSql("a", where.param(now.toISOString()))}`);
  } else if (input.outcome !== undefined) {
    where.add(`a.metadata is not null and a.metadata->'outcome'->>'status' = ${where.param(input.outcome)}`);
  }
  if (input.measure_before !== undefined) where.add(`a.measure_due_at < ${where.param(resolveInstant(input.measure_before, now).toISOString())}::timestamptz`);
  // An artifact's id begins with its creation millisecond, the same instant as its
  // created_at (insertArtifact writes both from one clock reading), so a creation range is
  // exactly an id range, which the owner-led id index serves in order and stops early.
  if (input.created_after !== undefined) {
    where.add(`a.id >= ${where.param(idFloorAt(new Date(resolveInstant(input.created_after, now).getTime() + 1)))}`);
  }
  if (input.created_before !== undefined) where.add(`a.id < ${where.param(idFloorAt(resolveInstant(input.created_before, now)))}`);
}
