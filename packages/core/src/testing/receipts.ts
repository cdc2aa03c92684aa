/** A complete receipt as a client would send it: every field answered. */
export function fullReceipt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    changed: "Nightly export now retries failed uploads",
    affected: "Finance analysts who read the morning export",
    before: "A single failed upload left the export empty until someone re-ran it by hand.",
    after: "Failed uploads are retried three times with backoff; the export is complete by 06:00.",
    evidence: [
      { label: "CI run 4812 (green)", url: "https://ci.example.com/runs/4812" },
      { label: "Export dashboard", url: "https://grafana.example.com/d/export" },
    ],
    evidence_note: "The retry path was exercised by killing the upload target for five minutes.",
    outcome: { status: "pending", measure_at: "2026-12-07" },
    human_action: "Approve the retry budget in the finance channel.",
    remaining: [{ item: "Alert when all three retries fail", owner: "sam" }],
    learned: "The upload target drops connections during its 02:00 maintenance window.",
    title: "Export retries failed uploads",
    details: "## Notes\n\nRetries use exponential backoff starting at 30 s.",
    tags: ["export", "Finance"],
    model: "opus-5",
    ...overrides,
  };
}

/** The least a valid receipt can say. */
export function minimalReceipt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    changed: "Rotated the staging database password",
    affected: "Staging services",
    before: "The old password was shared in a chat.",
    after: "A new password lives only in the vault.",
    evidence: [],
    outcome: { status: "not_applicable" },
    remaining: [],
    learned: "nothing new",
    ...overrides,
  };
}
