// The order the suite's files start in (ADR 0071). Three files run at a time (ADR 0044), and
// vitest starts them in the order its sequencer gives: by default project by project in name
// order, the largest files first within a project. Size says little here (`parity-1.test.ts`
// is one line and runs for a minute and a half), so the longest files started last and ran
// alone at the end. This sequencer starts the projects with the longest files first and,
// within a project, its longest files first; every other file keeps vitest's own order.
import { BaseSequencer } from "vitest/node";
import { readDurations } from "./durations-reporter.mjs";

/**
 * Seconds per file, as the last run that recorded them measured (`CAIRN_RECORD_DURATIONS=1`,
 * durations-reporter.mjs). Only their order matters; a file never recorded runs in vitest's
 * order after the recorded ones of its project.
 */
const DURATIONS = readDurations();

export class LongestFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (spec) => DURATIONS[spec.moduleId.slice(root.length + 1)] ?? 0;
    const longestOf = new Map();
    for (const spec of sorted) longestOf.set(spec.project.name, Math.max(longestOf.get(spec.project.name) ?? 0, seconds(spec)));
    // Files of one project stay together: a worker that runs a file of a non-isolated project is
    // kept for the next file only when that file is of the same project (vitest's pool).
    // Array.prototype.sort is stable, so ties keep vitest's order.
    return sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        longestOf.get(b.project.name) - longestOf.get(a.project.name) ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        seconds(b) - seconds(a),
    );
  }
}
