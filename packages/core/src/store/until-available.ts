import { isUnavailable } from "./faults.js";

/**
 * Runs `work` again while the database is unavailable (a failover, a restart), until
 * `deadline` (ms since the epoch), then lets the last failure through. For writes that
 * record what already happened outside the database — a webhook delivered, whose record
 * lost means the same delivery again once its lease ends (ADR 0085). Only for work that is
 * safe to run twice (its statements are guarded, so a commit whose answer was lost is not
 * recorded twice).
 */
export async function untilAvailable<T>(work: () => Promise<T>, deadline: number, pauseMs = 250): Promise<T> {
  for (let pause = pauseMs; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await work();
    } catch (err) {
      if (!isUnavailable(err) || Date.now() + pause >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
