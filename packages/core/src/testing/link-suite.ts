import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Artifact } from "../artifact/schemas.js";
import type { TestWorld } from "./fixtures.js";
import { type LinkDriver, type LinkScenario, type Outcome, setupLinkScenario, type ViewerKey } from "./link-scenario.js";
import { FOLLOWS_CREATE_TABLE, FOLLOWS_TABLE, PRODUCED_BY_TABLE, REFUSED_EDGES, RUN_ACCESS_TABLE } from "./link-tables.js";
import { minimalReceipt } from "./receipts.js";

export interface LinkSuiteTarget {
  world: TestWorld;
  driver: LinkDriver;
  close(): Promise<void>;
}

const MISSING_ARTIFACT = "art_00000000000000000000000000";
const MISSING_RUN = "run_00000000000000000000000000";

/**
 * SPEC §3/§9 tenancy and link rules as one table-driven suite. Every surface runs it
 * with its own driver (core directly, REST over HTTP), so they cannot disagree.
 */
export function runLinkRuleSuite(label: string, open: () => Promise<LinkSuiteTarget>): void {
  describe(label, () => {
    let target: LinkSuiteTarget;
    let s: LinkScenario;
    beforeAll(async () => {
      target = await open();
      s = await setupLinkScenario(target.world, target.driver);
    });
    afterAll(async () => target?.close());

    const user = (v: Exclude<ViewerKey, "link holder">) => ({ "owner user": s.users.owner, "team member": s.users.member, "other user": s.users.other })[v];
    const read = (viewer: ViewerKey, artifact: { id: string; url: string }): Promise<Outcome<Artifact>> =>
      viewer === "link holder"
        ? s.driver.readByLink(artifact.url)
        : (s.driver.invoke(user(viewer), "artifact_read", { id: artifact.id }) as Promise<Outcome<Artifact>>);
    const missingArtifact = (viewer: Exclude<ViewerKey, "link holder">) => s.driver.invoke(user(viewer), "artifact_read", { id: MISSING_ARTIFACT });

    it.each(PRODUCED_BY_TABLE)("%s reading the %s: %s is %s", async (viewer, receipt, run, expected) => {
      const got = await read(viewer, s.receipts[receipt]);
      if (expected === "not_found") {
        expect(got.ok).toBe(false);
        // No existence leak: the same answer as for an id that exists nowhere.
        if (!got.ok && viewer !== "link holder") expect(got.error).toEqual(((await missingArtifact(viewer)) as { error: unknown }).error);
        return;
      }
      if (!got.ok) throw new Error(JSON.stringify(got.error));
      const listed = got.value.produced_by.some((r) => r.id === s.runs[run].id);
      expect(listed).toBe(expected === "listed");
      if (listed) expect(got.value.produced_by).toContainEqual({ id: s.runs[run].id, name: s.runs[run].name });
      // A hidden run's id appears nowhere in the answer, and whatever is listed is a run this viewer can open.
      if (!listed) expect(JSON.stringify(got.value)).not.toContain(s.runs[run].id);
      for (const r of got.value.produced_by) {
        if (viewer === "link holder") throw new Error("a link holder was shown a run");
        expect((await s.driver.invoke(user(viewer), "run_read", { run_id: r.id })).ok).toBe(true);
      }
    });

    it.each(FOLLOWS_TABLE)("%s reading what follows the %s: follows is %s", async (viewer, receipt, expected) => {
      const got = await read(viewer, s.followers[receipt]);
      if (expected === "not_found") {
        expect(got.ok).toBe(false);
        return;
      }
      if (!got.ok) throw new Error(JSON.stringify(got.error));
      expect(got.value.follows).toEqual(expected === "shown" ? { id: s.receipts[receipt].id } : null);
      // A hidden follows id appears nowhere in the answer: not in the body, not in the metadata.
      if (expected !== "shown") expect(JSON.stringify(got.value)).not.toContain(s.receipts[receipt].id);
    });

    it.each(RUN_ACCESS_TABLE)("%s opening the %s: %s", async (viewer, run, expected) => {
      const runId = s.runs[run].id;
      const got = await s.driver.invoke(user(viewer), "run_read", { run_id: runId });
      expect(got.ok).toBe(expected === "readable");
      if (expected === "readable") return;
      const missing = await s.driver.invoke(user(viewer), "run_read", { run_id: MISSING_RUN });
      expect(got).toEqual(missing);
      // Appending and closing answer exactly like reading: no way to probe a run's existence.
      const span = { span_id: "x", name: "probe", start_time: "2026-11-01T10:00:00Z" };
      for (const [op, input] of [
        ["run_append_spans", { run_id: runId, spans: [span] }],
        ["run_close", { run_id: runId }],
      ] as const) {
        const answer = await s.driver.invoke(user(viewer), op, input);
        const onMissing = await s.driver.invoke(user(viewer), op, { ...input, run_id: MISSING_RUN });
        expect(answer).toEqual(onMissing);
        expect(answer.ok ? null : answer.error.code).toBe("not_found");
      }
    });

    it.each(REFUSED_EDGES)("a span of the %s naming the %s is refused like an unknown id", (run, receipt) => {
      const refused = s.refused[`${run} → ${receipt}`];
      expect(refused).toEqual(s.unknown[run]);
      expect(refused?.ok ? null : refused?.error.issues).toEqual([
        { field: "spans.0.produced_artifact_id", reason: expect.stringContaining("names no artifact owned by") },
      ]);
    });

    it.each(FOLLOWS_CREATE_TABLE)("%s creating for %s, following the %s: %s", async (viewer, owner, receipt, expected) => {
      const input = minimalReceipt({
        learned: `follows ${viewer} ${owner} ${receipt}`,
        follows: s.receipts[receipt].id,
        ...(owner === "team" && { owner: `team:${s.team}` }),
      });
      const got = await s.driver.invoke(user(viewer), "receipt_create", input);
      if (expected === "accepted") {
        expect(got.ok).toBe(true);
        return;
      }
      if (got.ok) throw new Error("expected a foreign-link rejection");
      expect(got.error.code).toBe("validation_failed");
      expect(got.error.drop?.category).toBe("foreign-link");
      expect(got.error.issues).toEqual([{ field: "follows", reason: "names no receipt of the same owner" }]);
    });
  });
}
