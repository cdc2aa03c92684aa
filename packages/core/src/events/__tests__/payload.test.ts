import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArtifactRow } from "../../artifact/internal.js";
import { artifactCreatedData } from "../artifact-event.js";
import { eventPayload } from "../outbox.js";
import { DEFAULT_SCHEDULE, retryDelay } from "../schedule.js";
import { isPrivateAddress } from "../targets.js";

const golden = (name: string) => join(import.meta.dirname, "__golden__", name);
function expectGolden(name: string, actual: string) {
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden(name), actual);
  expect(actual).toBe(readFileSync(golden(name), "utf8"));
}

const config = { publicUrl: "https://cairn.example.com" };
const plainRow: ArtifactRow = {
  id: "art_06h2k3m4n5p6q7r8s9t0v1w2x3",
  owner: "user:sam",
  title: "Nightly log",
  share_type: "text",
  body: "all green",
  checksum: "sha256:00",
  tags: ["logs", "nightly"],
  metadata: null,
  provenance: { actor: { id: "tok_1", name: "ci", kind: "agent" }, on_behalf_of: "sam", model: null, surface: "rest" },
  follows: null,
  details: null,
  share_token: "c2hhcmUtdG9rZW4tZm9yLXRoZS1nb2xkZW4tdGVzdA",
  created_at: new Date("2026-12-01T09:00:00.000Z"),
  expires_at: new Date("2026-12-08T09:00:00.000Z"),
  retained: false,
  assignee: null,
};
const at = new Date("2026-12-01T09:00:00.000Z");
const EVENT_ID = "evt_06h2k3m4n5p6q7r8s9t0v1w2x4";

describe("event payloads", () => {
  it("a non-receipt artifact.created payload matches the golden bytes (no metadata key)", () => {
    const bytes = eventPayload("artifact.created", EVENT_ID, at, artifactCreatedData(config, plainRow));
    expectGolden("artifact-created-plain.json", bytes);
    expect(bytes).not.toContain("metadata");
  });

  it("a receipt's payload appends the stored metadata last, unchanged", () => {
    const metadata = { schema: "cairn.receipt/v1", changed: "x y z", human_action: "Approve it", outcome: { status: "pending", measure_at: "2026-12-07" } };
    const payload = JSON.parse(eventPayload("artifact.created", EVENT_ID, at, artifactCreatedData(config, { ...plainRow, metadata })));
    expect(Object.keys(payload.data).at(-1)).toBe("metadata");
    expect(JSON.stringify(payload.data.metadata)).toBe(JSON.stringify(metadata));
  });

  it("the same input gives the same bytes, whatever order its keys came in", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 5 }), fc.boolean(), (title, tags, shuffle) => {
        const data = artifactCreatedData(config, { ...plainRow, title, tags });
        const reordered = shuffle ? Object.fromEntries(Object.entries(data).reverse()) : data;
        const a = eventPayload("artifact.created", EVENT_ID, at, data);
        const b = eventPayload("artifact.created", EVENT_ID, at, reordered);
        expect(b).toBe(a);
        expect(eventPayload("artifact.created", EVENT_ID, at, data)).toBe(a);
      }),
    );
  });

  it("strips anything the type's schema does not name", () => {
    const data = { ...artifactCreatedData(config, plainRow), body: "must not travel" } as never;
    expect(eventPayload("artifact.created", EVENT_ID, at, data)).not.toContain("must not travel");
  });
});

describe("retry schedule", () => {
  it("follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h within the jitter, then stops", () => {
    const base = [5e3, 3e5, 1.8e6, 7.2e6, 1.8e7, 3.6e7, 3.6e7];
    base.forEach((ms, i) => {
      expect(retryDelay(DEFAULT_SCHEDULE, i, undefined, () => 0)).toBe(Math.round(ms * 0.8));
      expect(retryDelay(DEFAULT_SCHEDULE, i, undefined, () => 1)).toBe(Math.round(ms * 1.2));
    });
    expect(retryDelay(DEFAULT_SCHEDULE, base.length)).toBeNull();
    expect(base.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3_600_000);
  });

  it("never retries before a Retry-After", () => {
    expect(retryDelay(DEFAULT_SCHEDULE, 0, 120_000, () => 0.5)).toBe(120_000);
    expect(retryDelay(DEFAULT_SCHEDULE, 0, 48 * 3_600_000, () => 0.5)).toBe(24 * 3_600_000);
  });
});

describe("private targets", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.20.0.1", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fe80::1", true],
    ["fd00::1", true],
    ["::ffff:127.0.0.1", true],
    ["93.184.216.34", false],
    ["2606:4700::1111", false],
  ])("%s private: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
