import { DROP_CATEGORIES, type DropCategory } from "../drops/classification.js";
import type { DropCount } from "../drops/list.js";

export type CategoryCounts = Partial<Record<DropCategory, number>>;

/** Totals per category over every owner, in gate order, leaving out categories that never fired. */
export function totalsByCategory(counts: readonly DropCount[]): CategoryCounts {
  const totals: CategoryCounts = {};
  for (const category of DROP_CATEGORIES) {
    const n = counts.filter((c) => c.category === category).reduce((sum, c) => sum + Number(c.n), 0);
    if (n > 0) totals[category] = n;
  }
  return totals;
}

/** `Drops (7d): 2 invalid, 1 policy-vetoed, 3 duplicate` — or `none`. */
export function rollupLine(totals: CategoryCounts, days: number): string {
  const parts = Object.entries(totals).map(([category, n]) => `${n} ${category}`);
  return `Drops (${days}d): ${parts.length > 0 ? parts.join(", ") : "none"}`;
}
