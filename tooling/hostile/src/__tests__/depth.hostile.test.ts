import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS } from "@cairn/core";
import { DRIVERS, fullReceipt, runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, type ServeProcess, spawnServe } from "../serve.js";

/** JSON text of a receipt holding `levels` objects inside each other under `nested`: built as text, since JSON.stringify would overflow. */
function deepReceipt(levels: number): string {
  const deep = `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
  return `{"nested":${deep},${JSON.stringify(fullReceipt({ learned: `deep ${levels} ${Math.random()}` })).slice(1)}`;
}

interface Refusal {
  code: string;
  issues: Array<{ field: string; reason: string; limit?: number }>;
  drop?: { id: string };
}

/** The refusal names where the nesting went too deep, why, and the limit. */
function expectNestingRefusal(error: Refusal) {
  expect(error.code).toBe("validation_failed");
  const [issue] = error.issues;
  expect(issue?.field).toBe(["nested", ...Array(LIMITS.depth - 1).fill("a")].join("."));
  expect(issue?.reason).toBe(`is nested deeper than ${LIMITS.depth} levels of arrays and objects`);
  expect(issue?.limit).toBe(LIMITS.depth);
}

describe.each(DRIVERS)("a receipt nested 50,000 deep, against a real `cairn serve` on %s", (driver) => {
  let s: ServeProcess;
  let token: string;
  const auth = () => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
  beforeAll(async () => {
    s = await spawnServe(driver);
    const res = await fetch(`${s.url}/v1/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `deep-${driver}` }),
    });
    token = ((await res.json()) as { token: { token: string } }).token.token;
  });
  afterAll(async () => s?.close());

  const listedDrops = async () => {
    const res = await fetch(`${s.url}/v1/drops?limit=200`, { headers: auth() });
    return new Set(((await res.json()) as { items: Array<{ id: string }> }).items.map((d) => d.id));
  };

  it("REST: 422 naming the path, the reason and the limit, with a listed drop", async () => {
    const res = await fetch(`${s.url}/v1/receipts`, { method: "POST", headers: auth(), body: deepReceipt(50_000) });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: Refusal };
    expectNestingRefusal(error);
    expect((await listedDrops()).has(error.drop?.id as string)).toBe(true);
  });

  it("REST: one level past the limit is refused; at the limit the receipt is judged as usual", async () => {
    const past = await fetch(`${s.url}/v1/receipts`, { method: "POST", headers: auth(), body: deepReceipt(LIMITS.depth) });
    expect(past.status).toBe(422);
    expectNestingRefusal(((await past.json()) as { error: Refusal }).error);
    // The receipt is level 1, `nested` level 2: LIMITS.depth - 1 objects inside it reach the limit exactly,
    // and the receipt's own gates answer (`nested` is not a receipt field).
    const within = await fetch(`${s.url}/v1/receipts`, { method: "POST", headers: auth(), body: deepReceipt(LIMITS.depth - 1) });
    expect(within.status).toBe(422);
    expect(((await within.json()) as { error: Refusal }).error.issues).toEqual([{ field: "nested", reason: "is not a known field" }]);
  });

  it("REST: any other verb's body nested past the limit is a 422 too", async () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const res = await fetch(`${s.url}/v1/artifacts`, { method: "POST", headers: auth(), body: `{"title":"t","body":"b","tags":${deep}}` });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: Refusal };
    expect(error.issues[0]?.limit).toBe(LIMITS.depth);
    expect(error.issues[0]?.field).toMatch(/^tags(\.0)+$/);
  });

  it("MCP: the tool answers the same refusal, with a listed drop", async () => {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"receipt_create","arguments":${deepReceipt(50_000)}}}`;
    const res = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { ...auth(), accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: call,
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
    expect(answer.result?.isError).toBe(true);
    const { error } = JSON.parse(answer.result?.content[0]?.text ?? "{}") as { error: Refusal };
    expectNestingRefusal(error);
    expect((await listedDrops()).has(error.drop?.id as string)).toBe(true);
  });

  it("CLI --from: refused with exit 1 naming the path and the limit, no crash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-deep-cli-"));
    const file = join(dir, "deep.json");
    writeFileSync(file, deepReceipt(50_000));
    const env = { PATH: process.env.PATH ?? "", CAIRN_HOME: dir, CAIRN_URL: s.url, CAIRN_TOKEN: token };
    for (const args of [
      ["receipt", "--from", file, "--json"],
      ["receipt", "--dry-run", "--from", file, "--json"],
    ]) {
      const run = await runNode([CLI_BIN, ...args], { env });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expectNestingRefusal((JSON.parse(run.stdout) as { error: Refusal }).error);
    }
    expect(s.child.exitCode).toBeNull();
    expect(s.output()).not.toMatch(/RangeError|Maximum call stack/);
  });
});
