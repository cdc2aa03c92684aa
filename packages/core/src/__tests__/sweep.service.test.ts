import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runDueJobs } from "../events/jobs.js";
import { lastSweep, sweepExpired } from "../lifecycle/sweep.js";
import { JOBS } from "../runtime/job-list.js";
import { expirySweepJob } from "../runtime/sweep-job.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const DAY_MS = 86_400_000;

describe.each(DRIVERS)("the expiry sweeper on %s", (driver) => {
  let clock = Date.parse("2026-12-01T12:00:00Z");
  const fx = useTestWorld(driver, () => new Date(clock));

  const count = async (sql: string, params: unknown[]) => Number((await fx.store.query<{ n: number }>(sql, params))[0]?.n);

  it("purges expired, unretained artifacts and their edges in bounded batches; retained ones survive; 410 until purged", async () => {
    const sam = await fx.world.user("sam");
    const make = (learned: string, extra: Record<string, unknown> = {}) =>
      fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: `${learned} ${randomBytes(3).toString("hex")}`, ...extra }));
    const doomed = [];
    for (let i = 0; i < 7; i++) doomed.push(await make("short", { expires_in: 60 }));
    const kept = await make("kept", { expires_in: 60 });
    await fx.world.cairn.invoke("artifact_retain", sam.ctx(), { id: kept.id });
    const fresh = await make("fresh");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "writer" });
    const spanOf = (id: string, artifact: string) => ({
      span_id: id,
      name: id,
      start_time: "2026-12-01T11:00:00Z",
      end_time: "2026-12-01T11:00:01Z",
      produced_artifact_id: artifact,
    });
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: [spanOf("a", doomed[0]?.id ?? ""), spanOf("b", fresh.id)] });

    clock += 120_000;
    const first = doomed[0]?.id ?? "";
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: first }))).code).toBe("gone");

    const result = await sweepExpired(fx.store, new Date(clock), { batchSize: 3 });
    expect(result).toEqual({ purged: 7, batches: 3 });
    expect(await count("select count(*) as n from artifacts where id = any($1::text[])", [doomed.map((d) => d.id)])).toBe(0);
    expect(await count("select count(*) as n from produced_edges where artifact_id = $1", [first])).toBe(0);
    expect(await count("select count(*) as n from produced_edges where artifact_id = $1", [fresh.id])).toBe(1);
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: first }))).code).toBe("not_found");
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: kept.id })).retained).toBe(true);
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: fresh.id })).id).toBe(fresh.id);

    expect(await lastSweep(fx.store)).toMatchObject({ last_purged: 7, total_purged: 7 });
    const doctor = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    expect(doctor.checks[0]?.summary).toContain("the expiry sweeper purged 7 expired artifacts (7 on its last run");

    clock += 8 * DAY_MS;
    const later = await sweepExpired(fx.store, new Date(clock));
    expect(later.purged).toBeGreaterThanOrEqual(1); // fresh expired with the owner's 7-day TTL
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: kept.id })).retained).toBe(true);
    clock -= 8 * DAY_MS;
  });

  it("several sweepers at once share the work: each row deleted once, none waits on another's batch", async () => {
    const sam = await fx.world.user("sam");
    const now = new Date(clock);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const a = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: `t${i}`, body: `b${i}`, expires_in: 60 });
      ids.push(a.id);
    }
    const at = new Date(now.getTime() + 61_000);
    const results = await Promise.all([0, 1, 2, 3].map(() => sweepExpired(fx.store, at, { batchSize: 5 })));
    expect(results.reduce((n, r) => n + r.purged, 0)).toBe(60);
    expect(await count("select count(*) as n from artifacts where id = any($1::text[])", [ids])).toBe(0);
  });

  it("runs as a scheduled job of the shared workers", async () => {
    expect(JOBS).toContain(expirySweepJob);
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "job", body: "swept by the job", expires_in: 60 });
    const at = new Date(clock + 120_000);
    const log: string[] = [];
    const ran = await runDueJobs(
      { store: fx.store, config: fx.world.cairn.config, now: () => at, log: (l) => log.push(l), signal: new AbortController().signal },
      [expirySweepJob],
    );
    expect(ran).toContain("artifacts.expiry_sweep");
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: a.id }))).code).toBe("not_found");
  });
});
