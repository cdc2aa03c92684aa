import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNode } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PLUGIN = join(import.meta.dirname, "../../../../integrations/claude-code");
const HOOK = join(PLUGIN, "hooks/stop-receipt.mjs");
const STATE_HOME = mkdtempSync(join(tmpdir(), "cairn-stop-hook-home-"));

/** Runs the hook as Claude Code does: the JSON on stdin, the answer on stdout. */
function runHook(stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Its per-session state goes under CAIRN_HOME: a scratch one, never the machine's ~/.cairn.
  return runNode([HOOK], { input: stdin, env: { ...process.env, CAIRN_HOME: STATE_HOME } });
}

// Transcript lines in the shape Claude Code writes them (JSONL: user and assistant events).
const userSays = (text: string) => ({ type: "user", message: { role: "user", content: text }, uuid: "u1", sessionId: "s1" });
const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "assistant",
  message: {
    role: "assistant",
    content: [
      { type: "text", text: "Working on it." },
      { type: "tool_use", id, name, input },
    ],
  },
  sessionId: "s1",
});
const toolResult = (id: string, isError = false) => ({
  type: "user",
  message: {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: isError ? '{"error":{"code":"validation_failed"}}' : "ok", ...(isError && { is_error: true }) }],
  },
  sessionId: "s1",
});

describe("the plugin's Stop hook (SPEC §22)", () => {
  let scratch: string;
  let repo: string;
  let plain: string;
  let n = 0;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-stop-hook-"));
    repo = join(scratch, "repo");
    plain = join(scratch, "not-a-repo");
    mkdirSync(join(repo, "src"), { recursive: true });
    mkdirSync(plain);
    execFileSync("git", ["init", "-q", repo]);
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(STATE_HOME, { recursive: true, force: true });
  });

  /** The documented Stop input, with a transcript of these events. */
  function stopInput(events: object[], extra: Record<string, unknown> = {}, cwd = repo): string {
    const transcript = join(scratch, `transcript-${++n}.jsonl`);
    writeFileSync(transcript, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    return JSON.stringify({
      session_id: "0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
      transcript_path: transcript,
      cwd,
      permission_mode: "default",
      hook_event_name: "Stop",
      stop_hook_active: false,
      ...extra,
    });
  }

  it("is wired as the plugin's Stop hook, a node script under the plugin root", () => {
    const config = JSON.parse(readFileSync(join(PLUGIN, "hooks/hooks.json"), "utf8"));
    const [entry] = config.hooks.Stop;
    // Claude Code expands the plugin root variable in the command.
    const command = ["node ", '"$', "{CLAUDE_PLUGIN_ROOT}", '/hooks/stop-receipt.mjs"'].join("");
    expect(entry.hooks).toEqual([{ type: "command", command, timeout: 15 }]);
  });

  it("blocks once with a reminder when the session changed files in a git work tree and left no receipt", async () => {
    const edits = [
      userSays("Make the export retry."),
      toolUse("t1", "Edit", { file_path: join(repo, "src/export.ts"), old_string: "a", new_string: "b" }),
      toolResult("t1"),
      toolUse("t2", "Write", { file_path: "src/retry.ts", content: "export {}" }),
      toolResult("t2"),
    ];
    const res = await runHook(stopInput(edits));
    expect(res.code).toBe(0);
    const answer = JSON.parse(res.stdout);
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain(`This session changed files in ${repo} (src/export.ts, src/retry.ts) and left no Cairn receipt`);
    expect(answer.reason).toContain("receipt_create");

    // Claude Code then continues with stop_hook_active set: the hook lets it stop.
    const again = await runHook(stopInput(edits, { stop_hook_active: true }));
    expect([again.code, again.stdout]).toEqual([0, ""]);
  });

  it("lets the stop through when a receipt was left after the changes, over MCP or from the shell", async () => {
    const edit = toolUse("t1", "Edit", { file_path: join(repo, "src/export.ts"), old_string: "a", new_string: "b" });
    for (const receipt of [
      toolUse("r1", "mcp__plugin_cairn_cairn__receipt_create", { changed: "Export retries uploads" }),
      toolUse("r1", "mcp__cairn__receipt_create", { changed: "Export retries uploads" }),
      toolUse("r1", "Bash", { command: "cairn receipt --from receipt.json" }),
    ]) {
      const res = await runHook(stopInput([edit, toolResult("t1"), receipt, toolResult("r1")]));
      expect([res.code, res.stdout], receipt.message.content[1]?.name).toEqual([0, ""]);
    }
  });

  it("still reminds when the only receipt call was refused, a dry run, or came before more changes", async () => {
    const edit = (id: string) => toolUse(id, "MultiEdit", { file_path: join(repo, "src/export.ts"), edits: [] });
    const refused = [edit("t1"), toolUse("r1", "mcp__cairn__receipt_create", {}), toolResult("r1", true)];
    const dryRun = [edit("t1"), toolUse("r1", "Bash", { command: "cairn receipt --dry-run --from r.json" }), toolResult("r1")];
    const before = [toolUse("r1", "mcp__cairn__receipt_create", {}), toolResult("r1"), edit("t2"), toolResult("t2")];
    for (const events of [refused, dryRun, before]) {
      const res = await runHook(stopInput(events));
      expect(JSON.parse(res.stdout).decision).toBe("block");
    }
  });

  it("never blocks a session without changes, or with changes outside any git work tree", async () => {
    const reading = [
      userSays("What does export.ts do?"),
      toolUse("t1", "Read", { file_path: join(repo, "src/export.ts") }),
      toolResult("t1"),
      toolUse("t2", "Bash", { command: "git log -1" }),
    ];
    expect((await runHook(stopInput(reading))).stdout).toBe("");
    const outside = [toolUse("t1", "Write", { file_path: join(plain, "notes.md"), content: "x" }), toolResult("t1")];
    expect((await runHook(stopInput(outside, {}, plain))).stdout).toBe("");
  });

  it("lets the stop through on input it cannot read: no transcript, a missing file, not JSON", async () => {
    for (const stdin of [
      JSON.stringify({ session_id: "s", hook_event_name: "Stop", stop_hook_active: false }),
      JSON.stringify({ session_id: "s", transcript_path: join(scratch, "gone.jsonl"), cwd: repo, hook_event_name: "Stop", stop_hook_active: false }),
      "not json",
    ]) {
      const res = await runHook(stdin);
      expect([res.code, res.stdout]).toEqual([0, ""]);
    }
  });
});
