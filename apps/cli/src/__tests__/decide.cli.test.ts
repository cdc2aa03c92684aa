import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  /**
   * `/cairn:ask` (integrations/claude-code/commands/ask.md) played as Claude Code would run
   * it: the shell commands are the ones the command file prescribes, word for word, with
   * its placeholders filled in, so the test fails when the file changes them. Claude holds
   * an agent token; the person answers from another session with `cairn decide`.
   */
  describe("/cairn:ask in a scripted Claude Code session", () => {
    const command = readFileSync(join(import.meta.dirname, "../../../../integrations/claude-code/commands/ask.md"), "utf8");
    const steps = [...command.matchAll(/```bash\n([^\n]+)\n\s*```/g)].map((m) => (m[1] as string).trim());
    const run = (line: string, fill: Record<string, string>, env: Record<string, string>) => {
      const words = line.split(/\s+/).map((w) => fill[w] ?? w);
      expect(words[0], line).toBe("cairn");
      expect(
        words.filter((w) => /^<.*>$/.test(w)),
        `unfilled placeholder in ${line}`,
      ).toEqual([]);
      return runCli(words.slice(1), { env });
    };
    const session = async () => {
      const sam = await cliUser(server, "sam");
      const agent = await runCli(["token", "create", `claude-${Math.random().toString(36).slice(2, 8)}`, "--kind", "agent"], { env: sam.env });
      return { sam, claude: { ...sam.env, CAIRN_TOKEN: agent.stdout.trim() } };
    };
    /** Claude's Write tool call: the drafted receipt with its ask, in a new temporary file. */
    const draft = (answerBy: string) => {
      const file = join(mkdtempSync(join(tmpdir(), "cairn-ask-")), "cairn-ask-migration.json");
      const receipt = {
        ...minimalReceipt({ changed: "Prepared the orders table migration", learned: `the copy took 14 minutes ${Math.random()}` }),
        human_action: "Approve the orders table migration tonight",
        ask: {
          options: [
            { id: "approve", label: "Approve tonight" },
            { id: "hold", label: "Hold until the weekend" },
          ],
          comment: "optional",
          answer_by: answerBy,
        },
      };
      writeFileSync(file, JSON.stringify(receipt, null, 2));
      return file;
    };

    it("prescribes leaving the receipt, then waiting, and says what each of wait's exit codes means", () => {
      expect(steps).toEqual(["cairn receipt --from <file> --json", "cairn wait <id> --timeout <timeout>"]);
      expect(command).toMatch(/^---\ndescription: .+\nargument-hint: .+\n---\n/);
      expect(command).toContain("$ARGUMENTS");
      for (const code of Object.values(WAIT_EXIT)) expect(command).toContain(`**${code}**`);
      expect(command).toMatch(/Never answer the ask yourself/);
    });

    it("leaves the ask, waits, and goes on with the option the person chose", async () => {
      const { sam, claude } = await session();
      const left = await run(steps[0] as string, { "<file>": draft("48h") }, claude);
      expect(left.code, left.stderr).toBe(0);
      const { id, url, ask } = left.json as { id: string; url: string; ask: { options: Array<{ id: string }> } };
      expect(url).toContain("/s/");
      expect(ask.options.map((o) => o.id)).toEqual(["approve", "hold"]);

      const waiting = run(steps[1] as string, { "<id>": id, "<timeout>": "30m" }, claude);
      await new Promise((r) => setTimeout(r, 300));
      const answered = await runCli(["decide", id, "hold", "--comment", "Not during the freeze"], { env: sam.env });
      expect(answered.code, answered.stderr).toBe(0);
      const woke = await waiting;
      expect(woke.code, woke.stderr).toBe(WAIT_EXIT.decided);
      expect(woke.stdout.trim()).toBe("hold");
    });

    it("stops cleanly when nobody answers within the timeout (exit 4), and the command says so", async () => {
      const { claude } = await session();
      const left = await run(steps[0] as string, { "<file>": draft("7d") }, claude);
      expect(left.code, left.stderr).toBe(0);
      const waited = await run(steps[1] as string, { "<id>": left.json.id, "<timeout>": "1s" }, claude);
      expect(waited.code).toBe(WAIT_EXIT.timedOut);
      expect(waited.stdout).toBe("");
      expect(command).toContain(`**${WAIT_EXIT.timedOut}**: the timeout passed and nobody has answered yet.`);
    });
  });
});
