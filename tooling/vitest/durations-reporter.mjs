// Records how long each test file ran, for the sequencer's order (ADR 0084). Off unless
// CAIRN_RECORD_DURATIONS=1: a run then merges its files' seconds into durations.json (a
// file the run did not reach keeps its last figure), so a partial run refreshes only what it ran.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

export const DURATIONS_FILE = new URL("./durations.json", import.meta.url);

/** Seconds per test file, from the repository's root, as the last recording run measured them. */
export function readDurations() {
  return existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) : {};
}

export class FileDurations {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules) {
    if (process.env.CAIRN_RECORD_DURATIONS !== "1") return;
    const durations = readDurations();
    for (const module of testModules) {
      // A file that failed or was cut short says nothing about how long it takes.
      if (module.state() !== "passed") continue;
      durations[relative(this.root, module.moduleId)] = Math.round(module.diagnostic().duration / 100) / 10;
    }
    const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
