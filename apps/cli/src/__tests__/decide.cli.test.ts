import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAIT_EXIT } from "../commands/decide.js";
import { EXIT } from "../exit-codes.js";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
  comment: "optional",
};

describe("cairn decide and cairn wait against cairn serve", () => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer("pglite");
  });
  afterAll(async () => server?.stop());

  const ask = async (token: string, extra: Record<string, unknown> = {}) =>
    (
      await server.rest("POST", "/v1/receipts", token, {
        ...minimalReceipt({ learned: `cli ask ${Math.random()}` }),
        human_action: "Approve the migration?",
        ask: { ...ASK, ...extra },
      })
    ).json.id as string;

  it("wait exits 4 on timeout; decide answers with via cli; wait then prints the option and exits 0", async () => {
    const sam = await cliUser(server, "sam");
    const id = await ask(sam.token);
    const timedOut = await runCli(["wait", id, "--timeout", "1s"], { env: sam.env });
    expect(timedOut.code).toBe(WAIT_EXIT.timedOut);
    expect(timedOut.stdout).toBe("");

    const open = await runCli(["read", id], { env: sam.env });
    expect(open.stdout).toMatch(/ask\s+Choose one: Approve \(approve\) · Reject \(reject\)/);

    const waiting = runCli(["wait", id, "--timeout", "30s"], { env: sam.env });
    await new Promise((r) => setTimeout(r, 300));
    const decided = await runCli(["decide", id, "reject", "--comment", "Not before the freeze"], { env: sam.env });
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stdout).toMatch(new RegExp(`Decided: Reject — ${sam.name}, \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC`));
    expect(decided.stdout).toContain("Comment: Not before the freeze");
    const woke = await waiting;
    expect(woke.code, woke.stderr).toBe(WAIT_EXIT.decided);
    expect(woke.stdout.trim()).toBe("reject");

    const read = await runCli(["read", id], { env: sam.env });
    expect(read.stdout).toMatch(new RegExp(`ask\\s+Decided: Reject — ${sam.name}, \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC`));
    expect(read.stdout).toMatch(/ask\s+Comment: Not before the freeze/);

    const json = await runCli(["wait", id, "--json"], { env: sam.env });
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ state: "decided", decision: { option: "reject", via: "cli", by: { user: sam.name } } });

    const again = await runCli(["decide", id, "approve", "--json"], { env: sam.env });
    expect(again.code).toBe(EXIT.rejected);
    expect(again.json.error.code).toBe("already_decided");
  });

  it("an agent token may wait but not decide; wait exits 3 once the ask expired", async () => {
    const sam = await cliUser(server, "sam");
    const id = await ask(sam.token, { answer_by: new Date(Date.now() + 4_000).toISOString() });
    const agent = await runCli(["token", "create", "claude", "--kind", "agent"], { env: sam.env });
    const agentEnv = { ...sam.env, CAIRN_TOKEN: agent.stdout.trim() };
    const denied = await runCli(["decide", id, "approve", "--json"], { env: agentEnv });
    expect(denied.code).toBe(EXIT.auth);
    expect(denied.json.error.message).toContain("decisions:write");
    expect((await runCli(["wait", id, "--timeout", "1s"], { env: agentEnv })).code).toBe(WAIT_EXIT.timedOut);

    // Held until the deadline, then told it expired.
    const expired = await runCli(["wait", id, "--timeout", "30s"], { env: agentEnv });
    expect(expired.code, expired.stderr).toBe(WAIT_EXIT.expired);
    expect(expired.stderr).toContain("expired");
  });
});
