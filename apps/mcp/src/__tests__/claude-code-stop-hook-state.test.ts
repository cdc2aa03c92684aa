import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const HOOK = join(import.meta.dirname, "../../../../integrations/claude-code/hooks/stop-receipt.mjs");

/** Runs the hook as Claude Code does (JSON on stdin, answer on stdout), timing it. */
function runHook(stdin: string, home: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOOK], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, CAIRN_HOME: home } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    // Claude Code kills a hook after its timeout (15 s); a test that gets here failed.
    const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
  });
}

// Transcript lines in the shape Claude Code writes them (JSONL: user and assistant events).
const userSays = (text: string) => ({ type: "user", message: { role: "user", content: text }, sessionId: "s1" });
const assistantSays = (text: string) => ({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] }, sessionId: "s1" });
const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  sessionId: "s1",
});
const toolResult = (id: string) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
  sessionId: "s1",
});
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { stdio: "ignore" });

function initRepo(path: string) {
  mkdirSync(path, { recursive: true });
  git(path, "init", "-q");
  git(path, "config", "user.email", "t@example.com");
  git(path, "config", "user.name", "t");
  writeFileSync(join(path, "a.txt"), "first line\n");
  git(path, "add", "a.txt");
  git(path, "commit", "-q", "-m", "start");
}

describe("the Stop hook bounds what it reads and does (SPEC §31)", () => {
  let scratch: string;
  let repo: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-stop-bounds-"));
    repo = join(scratch, "repo");
    initRepo(repo);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const input = (transcript: string, session = "bounds") =>
    JSON.stringify({ session_id: session, transcript_path: transcript, cwd: repo, hook_event_name: "Stop", stop_hook_active: false });

  it("lets the stop through at once for /dev/zero, /dev/urandom, a FIFO nobody writes and a directory; never a crash", async () => {
    const fifo = join(scratch, "transcript.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const transcript of ["/dev/zero", "/dev/urandom", fifo, scratch]) {
      const res = await runHook(input(transcript), scratch);
      expect([res.code, res.stdout, res.stderr], transcript).toEqual([0, "", ""]);
      expect(res.ms, transcript).toBeLessThan(5_000);
    }
  }, 60_000);

  it("reads only the end of a huge transcript (a 2 GiB sparse file), and still sees the edit there", async () => {
    const transcript = join(scratch, "huge.jsonl");
    writeFileSync(transcript, "");
    truncateSync(transcript, 2 * 1024 * 1024 * 1024);
    appendFileSync(transcript, `\n${JSON.stringify(toolUse("t1", "Write", { file_path: join(repo, "late.txt"), content: "x" }))}\n`);
    const res = await runHook(input(transcript, "huge"), scratch);
    expect(res.ms).toBeLessThan(5_000);
    expect(JSON.parse(res.stdout).reason).toContain("late.txt");
  }, 30_000);

  it("3,000 written files across 20 work trees: bounded git work, a few seconds at most", async () => {
    const events: object[] = [];
    for (let r = 0; r < 20; r++) {
      const tree = join(scratch, `tree-${r}`);
      mkdirSync(tree);
      git(tree, "init", "-q");
      // Each file in a directory of its own that exists: before, one `git rev-parse` per directory (57 s for 3,000).
      for (let i = 0; i < 150; i++) mkdirSync(join(tree, `dir-${i}`));
      for (let i = 0; i < 150; i++) events.push(toolUse(`t${r}-${i}`, "Write", { file_path: join(tree, `dir-${i}`, `file-${i}.ts`), content: "x" }));
    }
    const transcript = join(scratch, "many.jsonl");
    writeFileSync(transcript, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const res = await runHook(input(transcript, "many"), scratch);
    expect(res.code).toBe(0);
    expect(res.ms).toBeLessThan(8_000);
    const reason = JSON.parse(res.stdout).reason as string;
    // At most 8 work trees are looked at (the cwd's first), each naming 5 files and how many more.
    expect(reason.match(/tree-\d+ \(/g)?.length).toBe(7);
    expect(reason).toContain("and 145 more");
  }, 30_000);
});

describe("the Stop hook reminds once per change and sees shell edits (SPEC §24)", () => {
  let scratch: string;
  let repo: string;
  let transcript: string;
  const session = "0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f";
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-stop-state-"));
    repo = join(scratch, "repo");
    initRepo(repo);
    transcript = join(scratch, `${session}.jsonl`);
    writeFileSync(transcript, "");
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Claude Code appends each turn's events to the session's one transcript. */
  const turn = (...events: object[]) => appendFileSync(transcript, events.map((e) => `${JSON.stringify(e)}\n`).join(""));
  const hook = (event: "Stop" | "SessionStart", extra: Record<string, unknown> = {}) =>
    runHook(
      JSON.stringify({ session_id: session, transcript_path: transcript, cwd: repo, hook_event_name: event, stop_hook_active: false, ...extra }),
      join(scratch, "home"),
    );
  const decision = (res: { stdout: string }) => (res.stdout === "" ? "stop" : (JSON.parse(res.stdout).decision as string));

  it("a declined reminder is not repeated on a turn without edits; a later shell edit blocks again; a receipt settles it", async () => {
    expect((await hook("SessionStart", { source: "startup" })).stdout).toBe("");

    // Turn 1: an Edit. The stop is blocked once.
    writeFileSync(join(repo, "a.txt"), "first line\nsecond line\n");
    turn(userSays("Add a second line."), toolUse("t1", "Edit", { file_path: join(repo, "a.txt"), old_string: "x", new_string: "y" }), toolResult("t1"));
    const first = await hook("Stop");
    expect(decision(first)).toBe("block");
    expect(JSON.parse(first.stdout).reason).toContain(`${repo} (a.txt)`);
    // Claude declines ("a scratch edit; no receipt needed") and stops: stop_hook_active lets it.
    turn(assistantSays("A scratch edit; no receipt needed."));
    expect(decision(await hook("Stop", { stop_hook_active: true }))).toBe("stop");

    // Turn 2: a question, no edits. Before, the same reminder came back every turn.
    turn(userSays("What does a.txt say?"), toolUse("t2", "Read", { file_path: join(repo, "a.txt") }), toolResult("t2"), assistantSays("Two lines."));
    expect(decision(await hook("Stop"))).toBe("stop");

    // Turn 3: a shell edit (sed -i); no Write/Edit call in sight. Before, it was never noticed.
    writeFileSync(join(repo, "a.txt"), "first line\nsecond line, edited by sed\n");
    turn(userSays("Fix the second line."), toolUse("t3", "Bash", { command: "sed -i 's/line$/line, edited by sed/' a.txt" }), toolResult("t3"));
    const third = await hook("Stop");
    expect(decision(third)).toBe("block");
    expect(JSON.parse(third.stdout).reason).toContain(`${repo} (a.txt)`);

    // The agent leaves a receipt from the shell: the next stop goes through.
    turn(toolUse("r1", "Bash", { command: "cairn receipt --from receipt.json" }), toolResult("r1"));
    expect(decision(await hook("Stop", { stop_hook_active: true }))).toBe("stop");
    turn(userSays("Thanks."), assistantSays("You're welcome."));
    expect(decision(await hook("Stop"))).toBe("stop");

    // Turn 5: a new file from the shell (cat > file) blocks, naming it.
    writeFileSync(join(repo, "notes.md"), "# Notes\n");
    turn(userSays("Write notes."), toolUse("t5", "Bash", { command: "cat > notes.md <<'EOF'\n# Notes\nEOF" }), toolResult("t5"));
    const fifth = await hook("Stop");
    expect(decision(fifth)).toBe("block");
    expect(JSON.parse(fifth.stdout).reason).toContain(`${repo} (notes.md)`);
  }, 60_000);
});
