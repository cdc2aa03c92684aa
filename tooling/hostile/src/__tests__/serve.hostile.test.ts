import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS } from "@cairn/core";
import { DRIVERS, fullReceipt, runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEAVY, justUnder2MiB } from "../heavy.js";
import { CLI_BIN, pollHealth, type ServeProcess, spawnServe } from "../serve.js";

const post = (s: ServeProcess, token: string, path: string, body: unknown, serialized = false) =>
  fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: serialized ? (body as string) : JSON.stringify(body),
  });

async function newUser(s: ServeProcess, name: string): Promise<string> {
  const res = await post(s, s.adminToken, "/v1/users", { name });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: { token: string } }).token.token;
}

describe.each(DRIVERS)("a real `cairn serve` under hostile load, on %s", (driver) => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await spawnServe(driver);
  });
  afterAll(async () => s?.close());

  it("the worst bodies are refused with 4xx, /healthz answers within 1 s throughout, every drop is listed", async () => {
    const token = await newUser(s, `heavy-${driver}`);
    // Built before the clock starts: the poller shares this process, and building 2 MiB bodies is not the server's time.
    const bodies = Object.entries(HEAVY).map(([label, make]) => [label, JSON.stringify(make())] as const);
    const health = pollHealth(s.url);
    const drops: string[] = [];
    // Keep the worst bodies coming for a few seconds, however fast the machine is, so /healthz is sampled under them.
    const started = performance.now();
    let rounds = 0;
    for (; rounds < 40 && (rounds < 3 || performance.now() - started < 3_000); rounds++) {
      await Promise.all(
        bodies.map(async ([label, body]) => {
          const path = label.includes("artifact") ? "/v1/artifacts" : "/v1/receipts";
          const res = await post(s, token, path, body, true);
          expect(res.status, label).toBeGreaterThanOrEqual(400);
          expect(res.status, label).toBeLessThan(500);
          const { error } = (await res.json()) as { error: { issues: unknown[]; drop?: { id: string; fields: string[] } } };
          expect(error.issues.length, label).toBeLessThanOrEqual(LIMITS.issuesReported + 1);
          if (path === "/v1/receipts") {
            expect(error.drop?.id, label).toBeDefined();
            expect(error.drop?.fields.length, label).toBeLessThanOrEqual(LIMITS.issuesReported + 1);
            drops.push(error.drop?.id as string);
          }
        }),
      );
    }
    const latencies = await health.stop();
    expect(latencies.length).toBeGreaterThan(3);
    console.log(`${driver}: /healthz max ${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} polls under ${rounds} rounds of the worst bodies`);
    expect(Math.max(...latencies), `healthz latencies: ${latencies.map((l) => l.toFixed(0)).join(",")}`).toBeLessThan(1_000);
    const listed = await fetch(`${s.url}/v1/drops?limit=200`, { headers: { authorization: `Bearer ${token}` } });
    const ids = new Set(((await listed.json()) as { items: Array<{ id: string }> }).items.map((d) => d.id));
    expect(drops.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("many large refused bodies, then drop listings: no crash, bounded memory, every drop listed", async () => {
    const token = await newUser(s, `many-${driver}`);
    const big = justUnder2MiB();
    // Serialized before the clock starts, as above: 40 stringifications of 2 MiB in this
    // process would delay its own /healthz poller, and the bound is the server's.
    const bodies = Array.from({ length: 40 }, (_, n) => JSON.stringify({ ...big, learned: `big ${n}` }));
    const drops: string[] = [];
    const health = pollHealth(s.url, 50);
    for (let i = 0; i < 40; i += 4) {
      const answers = await Promise.all(
        [0, 1, 2, 3].map(async (j) => {
          const res = await post(s, token, "/v1/receipts", bodies[i + j], true);
          expect(res.status).toBe(422);
          return ((await res.json()) as { error: { drop: { id: string } } }).error.drop.id;
        }),
      );
      drops.push(...answers);
    }
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${s.url}/v1/drops?limit=200`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      // Each drop names at most 21 paths, each at most a segment limit long: a page stays small.
      expect(text.length).toBeLessThan(200 * 25 * 300);
      const ids = new Set((JSON.parse(text) as { items: Array<{ id: string }> }).items.map((d) => d.id));
      expect(drops.filter((id) => !ids.has(id))).toEqual([]);
    }
    const latencies = await health.stop();
    expect(Math.max(...latencies), `healthz latencies: ${latencies.map((l) => l.toFixed(0)).join(",")}`).toBeLessThan(1_000);
    expect(s.child.exitCode).toBeNull();
    expect(s.rssMb()).toBeLessThan(1_200);
  });

  it("the CLI refuses unstorable text and impossible dates with exit 1, like --dry-run, and says which field", async () => {
    const token = await newUser(s, `cli-${driver}`);
    const dir = mkdtempSync(join(tmpdir(), "cairn-hostile-cli-"));
    const env = { PATH: process.env.PATH ?? "", CAIRN_HOME: dir, CAIRN_URL: s.url, CAIRN_TOKEN: token };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["nul.json", fullReceipt({ title: "a\u0000b" }), "title"],
      ["surrogate.json", fullReceipt({ outcome: { status: "pending", measure_at: "2026-02-30" } }), "outcome.measure_at"],
      ["invisible.json", fullReceipt({ changed: "\u200b\u200b" }), "changed"],
    ];
    for (const [name, doc, field] of cases) {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(doc));
      const sent = await runNode([CLI_BIN, "receipt", "--from", file, "--json"], { env });
      expect(sent.code, `${name}: ${sent.stdout}${sent.stderr}`).toBe(1);
      const body = JSON.parse(sent.stdout) as { error: { issues: Array<{ field: string }>; drop: { id: string } } };
      expect(body.error.issues.map((i) => i.field)).toContain(field);
      expect(body.error.drop.id).toBeDefined();
      if (name === "nul.json") {
        const dry = await runNode([CLI_BIN, "receipt", "--dry-run", "--from", file], { env });
        expect(dry.code, dry.stdout + dry.stderr).toBe(1);
      }
    }
  });
});
