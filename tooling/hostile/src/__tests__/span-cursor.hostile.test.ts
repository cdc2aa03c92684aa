import { DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, spawnServe } from "../serve.js";

/** A cursor in the shape the server issues, naming any span id: what a client holding another run's cursor, or an edited one, sends. */
const cursorNaming = (spanId: string) => Buffer.from(`span:${spanId}`, "utf8").toString("base64url");

describe.each(DRIVERS)("a spans cursor that names no span of the run, against a real `cairn serve` on %s", (driver) => {
  let s: ServeProcess;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error?: { issues: unknown[] } } };
  };
  beforeAll(async () => {
    s = await spawnServe(driver);
  });
  afterAll(async () => s?.close());

  it("is a 422 naming spans_cursor, while the run's own cursor reads on", async () => {
    const newRun = async (prefix: string) => {
      const run = await call("POST", "/v1/runs", { name: `${prefix} run` });
      expect(run.status).toBe(201);
      const id = run.json.id as string;
      const spans = [0, 1, 2].map((i) => ({ span_id: `${prefix}-${i}`, name: `step ${i}`, start_time: `2026-11-01T10:00:0${i}Z` }));
      expect((await call("POST", `/v1/runs/${id}/spans`, { spans })).status).toBe(200);
      return id;
    };
    const run = await newRun("mine");
    const other = await newRun("other");
    const first = await call("GET", `/v1/runs/${run}?spans_limit=1`);
    const next = first.json.spans_next_cursor as string;
    expect(typeof next).toBe("string");
    const second = await call("GET", `/v1/runs/${run}?spans_limit=1&spans_cursor=${next}`);
    expect(second.status).toBe(200);
    expect((second.json.spans as Array<{ span_id: string }>).map((x) => x.span_id)).toEqual(["mine-1"]);

    // Another run's cursor, and one naming a span that never was: neither is an empty last page.
    const otherCursor = (await call("GET", `/v1/runs/${other}?spans_limit=1`)).json.spans_next_cursor as string;
    for (const cursor of [otherCursor, cursorNaming("never-sent")]) {
      const read = await call("GET", `/v1/runs/${run}?spans_cursor=${cursor}`);
      expect(read.status, JSON.stringify(read.json)).toBe(422);
      expect(read.json.error?.issues).toEqual([{ field: "spans_cursor", reason: "names no span of this run: pass the run's own spans_next_cursor" }]);
    }
  });
});
