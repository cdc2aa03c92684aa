import { minimalReceipt } from "@cairn/core/testing";
import { expect } from "vitest";
import { runCli } from "./cli-process.js";

/** Status, code and how long one request took (ms). */
export async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; ms: number; headers: Headers }> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, ms: performance.now() - started, headers: res.headers };
}

/** Every surface of a running `cairn serve` says 503 `unavailable` within a few seconds, with Retry-After, and the CLI exits 3. */
export async function expectEverySurfaceUnavailable(url: string, home: string, token: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  for (const [path, init] of [
    ["/v1/me", { headers: auth }],
    ["/v1/artifacts?q=x", { headers: auth }],
    ["/v1/receipts", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(minimalReceipt()) }],
    [
      "/mcp",
      {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      },
    ],
  ] as const) {
    const r = await timed(`${url}${path}`, init as RequestInit);
    expect([path, r.status, r.body?.error?.code]).toEqual([path, 503, "unavailable"]);
    expect(r.ms).toBeLessThan(5_000);
    expect(r.headers.get("retry-after")).toBe("5");
  }
  const page = await timed(`${url}/s/not-a-real-share-token`);
  expect([page.status, page.ms < 5_000, page.headers.get("retry-after")]).toEqual([503, true, "5"]);
  const health = await timed(`${url}/healthz`);
  expect(health.status).toBe(503);
  expect(health.body).toMatchObject({ status: "fail", database: "unreachable" });
  expect(health.ms).toBeLessThan(3_000);
  const cli = (args: string[]) => runCli(args, { env: { CAIRN_HOME: home } });
  const whoami = await cli(["whoami"]);
  expect(whoami.code, whoami.stderr).toBe(3);
  expect(whoami.stderr).toContain("cannot reach its database");
  const doctor = await cli(["doctor", "--json"]);
  expect(doctor.code).toBe(3);
  expect(doctor.json.error.code).toBe("unavailable");
}

/** The server answers normally again (health first, polled: a pool may need a moment to reconnect). */
export async function expectEverySurfaceHealthy(url: string, home: string, token: string): Promise<void> {
  await expect.poll(async () => (await timed(`${url}/healthz`)).status, { timeout: 15_000, interval: 250 }).toBe(200);
  expect((await timed(`${url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  const doctor = await runCli(["doctor", "--json"], { env: { CAIRN_HOME: home } });
  expect(doctor.json.checks[0]).toMatchObject({ name: "Database", status: "ok" });
}
