import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minimalReceipt, runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "./cli-process.js";
import { CLI_BIN, homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

/** The README's OpenTelemetry example, exactly as written: the first `js` block under its heading. */
function readmeSnippet(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Traces in: OpenTelemetry"));
  const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("the README has no OpenTelemetry example");
  return block;
}

/**
 * SPEC §24, "Traces from the shell": the README's example run as written with the stock SDK
 * gives one run per task, and `cairn receipt` links its receipt to the trace TRACEPARENT
 * (or --traceparent) names. A real `cairn serve`, the built binary on PATH.
 */
describe("traces from the shell", () => {
  let serve: ServeProcess;
  let dispose: () => Promise<void>;
  let scratch: string;
  let admin: string;
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${serve.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return (await res.json()) as any;
  };
  const userToken = async (name: string) => (await call(admin, "POST", "/v1/users", { name: `${name}-${process.pid}` })).token.token as string;

  beforeAll(async () => {
    const home = await homeFor("pglite");
    dispose = home.dispose;
    serve = await spawnServe(home.env);
    admin = JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")).token as string;
    // Inside the CLI package, so the snippet's imports resolve to its stock OpenTelemetry packages.
    scratch = mkdtempSync(join(import.meta.dirname, "../../.readme-snippet-"));
    writeFileSync(join(scratch, "cairn"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BIN)} "$@"\n`);
    chmodSync(join(scratch, "cairn"), 0o755);
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("the README's OpenTelemetry example, run as written, gives one run for the task, and its receipt names that run", async () => {
    const token = await userToken("otel");
    writeFileSync(join(scratch, "snippet.mjs"), readmeSnippet());
    writeFileSync(join(scratch, "receipt.json"), JSON.stringify(minimalReceipt({ learned: "booked from the README" })));
    const ran = await runNode([join(scratch, "snippet.mjs")], {
      cwd: scratch,
      env: { ...process.env, PATH: `${scratch}:${process.env.PATH}`, CAIRN_URL: serve.url, CAIRN_TOKEN: token, CAIRN_HOME: join(scratch, "home") },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("Receipt stored");
    const runs = (await call(token, "GET", "/v1/runs")).items as Array<{ id: string; name: string; span_count: number }>;
    expect(runs.map((r) => [r.name, r.span_count])).toEqual([["travel-agent", 3]]);
    const receipts = (await call(token, "GET", "/v1/artifacts?tag=receipt")).items as Array<{ id: string }>;
    expect(receipts).toHaveLength(1);
    const receipt = await call(token, "GET", `/v1/artifacts/${receipts[0]?.id}`);
    expect(receipt.produced_by).toEqual([{ id: runs[0]?.id, name: "travel-agent" }]);
  });

  it("cairn receipt honours TRACEPARENT and --traceparent (the flag wins): produced_by names the run", async () => {
    const token = await userToken("shell");
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    // The shell's trace, sent as OTLP/JSON: one span of the task the receipt belongs to.
    await call(token, "POST", "/v1/traces", {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "nightly export" } }] },
          scopeSpans: [
            {
              spans: [
                { traceId, spanId: "00f067aa0ba902b7", name: "export", startTimeUnixNano: "1764600000000000000", endTimeUnixNano: "1764600001000000000" },
              ],
            },
          ],
        },
      ],
    });
    const [run] = (await call(token, "GET", "/v1/runs")).items as Array<{ id: string }>;
    const env = { CAIRN_URL: serve.url, CAIRN_TOKEN: token, CAIRN_HOME: join(scratch, "home") };
    const traced = await runCli(["receipt", "--from", "-", "--json"], {
      env: { ...env, TRACEPARENT: `00-${traceId}-00f067aa0ba902b7-01` },
      input: JSON.stringify(minimalReceipt({ learned: "from the environment" })),
    });
    expect(traced.code, traced.stderr).toBe(0);
    const runId = run?.id;
    expect(runId).toMatch(/^run_/);
    expect(traced.json.produced_by).toEqual([{ id: runId, name: "nightly export" }]);
    const flagged = await runCli(["receipt", "--from", "-", "--traceparent", `00-${traceId}-00f067aa0ba902b7-01`, "--json"], {
      env: { ...env, TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      input: JSON.stringify(minimalReceipt({ learned: "from the flag" })),
    });
    expect(flagged.code, flagged.stderr + flagged.stdout).toBe(0);
    expect(flagged.json.produced_by).toEqual([{ id: runId, name: "nightly export" }]);
    const plain = await runCli(["receipt", "--from", "-", "--json"], { env, input: JSON.stringify(minimalReceipt({ learned: "no trace" })) });
    expect(plain.json.produced_by).toEqual([]);
  });
});
