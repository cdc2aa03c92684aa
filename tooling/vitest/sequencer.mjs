// The order the suite's files start in (ADR 0071). Three files run at a time (ADR 0044), and
// vitest starts them in the order its sequencer gives: by default project by project in name
// order, the largest files first within a project. Size says little here (`parity-1.test.ts`
// is one line and runs for a minute and a half), so the longest files started last and ran
// alone at the end. This sequencer starts the projects with the longest files first and,
// within a project, its longest files first; every other file keeps vitest's own order.
import { BaseSequencer } from "vitest/node";

/**
 * The files that ran longer than about 20 s, in seconds, from a full run on this machine
 * (3 December 2026). Only their order matters: a file that grows long belongs here; a file
 * left out runs in vitest's order after these.
 */
export const LONG_FILES = {
  "tooling/browser/src/__tests__/loop.browser.test.ts": 237,
  "tooling/browser/src/__tests__/web.browser.test.ts": 201,
  "tooling/browser/src/__tests__/signin-link.browser.test.ts": 114,
  "tooling/parity/src/__tests__/parity-1.test.ts": 101,
  "apps/cli/src/__tests__/webhooks.process.test.ts": 95,
  "apps/cli/src/__tests__/notifications.serve.test.ts": 80,
  "tooling/parity/src/__tests__/parity-2.test.ts": 79,
  "tooling/browser/src/__tests__/subscriptions.browser.test.ts": 66,
  "tooling/browser/src/__tests__/oauth.browser.test.ts": 66,
  "apps/cli/src/__tests__/serve.test.ts": 45,
  "packages/core/src/events/__tests__/lock-order.service.test.ts": 39,
  "tooling/hostile/src/__tests__/bodies.hostile.test.ts": 29,
  "tooling/browser/src/__tests__/mcp-app.browser.test.ts": 29,
  "tooling/browser/src/__tests__/notifications.browser.test.ts": 28,
  "packages/core/src/__tests__/migration-checksums.service.test.ts": 23,
  "packages/core/src/__tests__/doctor-checks.service.test.ts": 22,
  "apps/rest/src/__tests__/docs.test.ts": 19,
};

export class LongestFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (spec) => LONG_FILES[spec.moduleId.slice(root.length + 1)] ?? 0;
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
