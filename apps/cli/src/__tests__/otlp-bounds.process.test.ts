import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { otlpTypes } from "@cairn/core";
import { DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

/**
 * SPEC §31 "work is bounded per request": the two OTLP requests of issue 31 against a real
 * `cairn serve` on each store, with `/healthz` polled every 200 ms beside them. One is a
 * resource of 7 attributes of 15,000 characters over 1,000 tiny spans (about 156 KB of
 * protobuf); the other 10,000 spans in 10,000 traces (about 510 KB).
 */

const REQUEST = otlpTypes().request;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const T0 = BigInt(Date.now()) * 1_000_000n;

function encode(resource: unknown[], spans: unknown[]): Buffer {
  return Buffer.from(REQUEST.encode(REQUEST.fromObject({ resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans }] }] })).finish());
}

/** One resource with 7 attributes of 15,000 characters (or short ones), 1,000 tiny spans in one trace. */
function amplifiedBody(longResource = true): { body: Buffer; traceId: string } {
  const traceId = randomBytes(16);
  const resource = [str("service.name", "amplifier"), ...Array.from({ length: 7 }, (_, i) => str(`pad.${i}`, `${i}`.repeat(longResource ? 15_000 : 10)))];
  const spans = Array.from({ length: 1_000 }, (_, i) => ({
    traceId,
    spanId: randomBytes(8),
    name: `s${i}`,
    startTimeUnixNano: String(T0 + BigInt(i)),
    endTimeUnixNano: String(T0 + BigInt(i) + 1_000n),
  }));
  return { body: encode(resource, spans), traceId: traceId.toString("hex") };
}

/** 10,000 root spans, each its own trace. */
function manyTracesBody(): Buffer {
  const spans = Array.from({ length: 10_000 }, (_, i) => ({
    traceId: randomBytes(16),
    spanId: randomBytes(8),
    name: `t${i}`,
    startTimeUnixNano: String(T0),
    endTimeUnixNano: String(T0 + 1_000_000n),
  }));
  return encode([str("service.name", "many")], spans);
}

describe.each(DRIVERS)("one OTLP request never keeps the others waiting, on %s", (driver) => {
  let serve: ServeProcess;
  let dispose: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    const home = await homeFor(driver);
    dispose = home.dispose;
    serve = await spawnServe(home.env);
    token = JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")).token as string;
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
  }, 120_000);

  const send = (body: Buffer) =>
    fetch(`${serve.url}/v1/traces`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/x-protobuf" }, body });

  /** Sends `body` while /healthz is polled every 200 ms; answers each probe's time and the export's. */
  async function alongsideHealth(body: Buffer): Promise<{ status: number; ms: number; probes: number[] }> {
    const probes: number[] = [];
    let done = false;
    const poll = (async () => {
      // Bounded: at most 60 s of probes.
      for (let i = 0; i < 300 && !done; i++) {
        const t = performance.now();
        const res = await fetch(`${serve.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        await res?.text();
        probes.push(res?.status === 200 ? performance.now() - t : Number.POSITIVE_INFINITY);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    const res = await send(body);
    await res.arrayBuffer();
    const ms = performance.now() - t;
    done = true;
    await poll;
    return { status: res.status, ms, probes };
  }

  it("a resource of 7 × 15,000 characters over 1,000 spans: stored once, the export quick, /healthz within a second throughout", async () => {
    const { body, traceId } = amplifiedBody();
    expect(body.byteLength).toBeGreaterThan(150_000);
    const r = await alongsideHealth(body);
    console.log(`${driver}: export ${Math.round(r.ms)} ms, slowest /healthz ${Math.round(Math.max(...r.probes))} ms of ${r.probes.length}`);
    expect(r.status).toBe(200);
    expect(Math.max(...r.probes)).toBeLessThan(1_000);
    expect(r.ms).toBeLessThan(5_000);
    const list = await fetch(`${serve.url}/v1/runs?q=${traceId}`, { headers: { authorization: `Bearer ${token}` } }).then(
      (x) => x.json() as Promise<{ items: Array<{ span_count: number }> }>,
    );
    expect(list.items[0]).toMatchObject({ span_count: 1_000 });
  }, 120_000);

  it("10,000 spans in 10,000 traces: every trace a run, /healthz within a second throughout", async () => {
    const body = manyTracesBody();
    expect(body.byteLength).toBeGreaterThan(500_000);
    const r = await alongsideHealth(body);
    console.log(`${driver}: export ${Math.round(r.ms)} ms, slowest /healthz ${Math.round(Math.max(...r.probes))} ms of ${r.probes.length}`);
    expect(r.status).toBe(200);
    expect(Math.max(...r.probes)).toBeLessThan(1_000);
    const list = await fetch(`${serve.url}/v1/runs?q=many&limit=200`, { headers: { authorization: `Bearer ${token}` } }).then(
      (x) => x.json() as Promise<{ items: Array<{ span_count: number }> }>,
    );
    expect(list.items).toHaveLength(200);
  }, 120_000);
});
