// Figures held to an absolute limit from the issue (milliseconds), not to a ratio.
import { figure } from "./lib.mjs";

/** The value at fraction p of an ascending list (nearest rank, no interpolation). */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * A figure in ms with its same-run baseline and ratio like every other, whose verdict is
 * `value ≤ maxMs` (when given): the issue states these targets in milliseconds, and the
 * ratio beside them says how much of a miss is the machine's load.
 */
export function limitFigure({ name, value, baselineName, baseline, maxMs }) {
  return figure({ name, value, unit: "ms", baselineName, baseline, extra: maxMs === undefined ? {} : { target: `≤ ${maxMs} ms`, ok: value <= maxMs } });
}
