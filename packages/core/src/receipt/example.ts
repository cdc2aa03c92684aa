const DAY_MS = 86_400_000;

/**
 * A complete, valid receipt: the starting point `cairn receipt --template` prints and the
 * example the API documentation shows. `measure_at` is a week after `now`, so the example
 * stays valid (a pending outcome in the past is only a warning, but a template should not
 * start with one).
 */
export function receiptExample(now: Date = new Date()) {
  const inAWeek = new Date(now.getTime() + 7 * DAY_MS).toISOString().slice(0, 10);
  return {
    changed: "Nightly invoice export now retries failed uploads",
    affected: "Finance analysts who read the 06:00 export",
    before: "One failed upload left the export empty until someone re-ran it by hand.",
    after: "Failed uploads are retried three times with backoff; the export is complete by 06:00.",
    evidence: [{ label: "CI run 4812 (green)", url: "https://ci.example.com/runs/4812" }],
    outcome: { status: "pending" as const, measure_at: inAWeek },
    human_action: "Approve the retry budget in the finance channel",
    remaining: [{ item: "Alert when all three retries fail", owner: "sam" }],
    learned: "The upload target drops connections during its 02:00 maintenance window.",
    tags: ["export"],
  };
}
