#!/usr/bin/env node
// Claude Code `Stop` (and `SessionStart`) hook of the Cairn plugin. It reads the hook's JSON
// on stdin (session_id, transcript_path, cwd, stop_hook_active, ...) and blocks the stop once,
// with a reminder, when the session changed files in a git work tree since its last receipt
// or reminder. Blocking is `{"decision": "block", "reason": ...}` on stdout.
//
// What counts as a change (SPEC §24): the git work trees the session worked in (its cwd's,
// and those of files its Write/Edit tools wrote) are compared with their state at the
// session's last receipt or reminder — so a file changed by a shell command (`sed -i`,
// `cat > file`) counts, and a reminder the agent declined is not repeated until something
// changes again. That state is a small file per session under $CAIRN_HOME/claude-code/
// (SessionStart records the first one). A tree with no recorded state yet falls back to the
// transcript: files written by the tools after the last receipt.
//
// Bounds (SPEC §31): the transcript must be a regular file, and at most its last
// MAX_TRANSCRIPT_BYTES are read; at most MAX_TREES work trees and MAX_ENTRIES status entries
// each are looked at, every git call has a timeout, and the whole hook a time budget. When a
// bound is hit, or anything cannot be read, the stop goes through: a reminder must never
// keep a session from ending, and the hook never crashes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Claude Code's tools that write files, and the input field naming the file. */
const FILE_TOOLS = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
/** The cairn MCP tool, however the client prefixes it (`mcp__cairn__…`, `mcp__plugin_cairn_cairn__…`). */
const RECEIPT_TOOL = /(^|__)receipt_create$/;
/** A receipt left from the shell counts too. */
const RECEIPT_COMMAND = /(^|[\s;&|(])cairn\s+receipt\b(?![^\n]*--(dry-run|template)\b)/;
const MAX_NAMED = 5;

/** The most of a transcript read: its end, where this session's latest turns are. */
export const MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;
/** Written files looked at (the latest), and directories walked up to find their work tree. */
const MAX_WRITES = 5_000;
/** Work trees compared at one stop. */
export const MAX_TREES = 8;
/** Status entries of one work tree; a tree with more is compared by its status text alone. */
const MAX_ENTRIES = 5_000;
/** Each git call, and the whole hook (Claude Code's timeout for it is 15 s). */
const GIT_TIMEOUT_MS = 3_000;
export const BUDGET_MS = 10_000;
/** State files of sessions untouched this long are removed (a few at each run). */
const STATE_TTL_MS = 14 * 86_400_000;

/** The top of the git work tree holding directory `dir` (a `.git` directory or file above it), or null. No process is started. */
function workTreeOf(dir, cache) {
  const seen = [];
  let top = null;
  for (let d = dir; ; d = dirname(d)) {
    if (cache.has(d)) {
      top = cache.get(d);
      break;
    }
    seen.push(d);
    if (existsSync(join(d, ".git"))) {
      top = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  for (const d of seen) cache.set(d, top);
  return top;
}

/** The nearest directory of `path` that exists: the file (or its directory) may be gone since. */
function existingDir(path) {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * The transcript's text, bounded: null unless it is a regular file (not a FIFO, a device
 * such as /dev/zero or /dev/urandom, or a directory); past MAX_TRANSCRIPT_BYTES only its end,
 * from the first whole line. Opened without blocking, so a FIFO never stalls the open.
 */
export function readTranscriptText(path, maxBytes = MAX_TRANSCRIPT_BYTES) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const length = Math.min(st.size, maxBytes);
    const start = st.size - length;
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    let text = buffer.subarray(0, read).toString("utf8");
    if (start > 0) text = text.slice(text.indexOf("\n") + 1);
    return text;
  } finally {
    closeSync(fd);
  }
}

/**
 * Walks the transcript (JSONL, one event per line): file writes by Claude Code's tools,
 * and receipt calls whose result was not an error. Returns the files written after the
 * last receipt, and how many receipts the session left.
 */
export function readTranscript(text, cwd) {
  const writes = [];
  const receipts = new Map(); // tool_use id -> index in writes at the time of the call
  let lastReceipt = -1;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue; // a line being written as we read, or not JSON at all
    }
    const content = event?.message?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (part?.type === "tool_use" && typeof part.name === "string") {
        const field = FILE_TOOLS[part.name];
        const target = field ? part.input?.[field] : undefined;
        if (typeof target === "string" && target !== "") writes.push(isAbsolute(target) ? target : resolve(cwd, target));
        const command = part.name === "Bash" ? part.input?.command : undefined;
        if (RECEIPT_TOOL.test(part.name) || (typeof command === "string" && RECEIPT_COMMAND.test(command))) {
          receipts.set(part.id, writes.length);
          lastReceipt = Math.max(lastReceipt, writes.length);
        }
      }
      if (part?.type === "tool_result" && receipts.has(part.tool_use_id) && part.is_error === true) {
        // A refused receipt (a tool error carrying its drop) is no receipt.
        receipts.delete(part.tool_use_id);
        lastReceipt = Math.max(-1, ...receipts.values());
      }
    }
  }
  return { written: writes.slice(Math.max(0, lastReceipt)).slice(-MAX_WRITES), receipts: receipts.size };
}

/** Runs git with a timeout and a bounded output; null when it fails, times out or is not there. */
function git(top, args) {
  try {
    return execFileSync("git", ["-C", top, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 8 * 1024 * 1024,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
    });
  } catch {
    return null;
  }
}

/**
 * A work tree's state: its HEAD and, for each path `git status` lists (changed, staged or
 * untracked), its status and the file's size and modification time — so a second change
 * to an already-changed file counts too. null when git cannot tell.
 */
export function snapshotOf(top) {
  const out = git(top, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"]);
  if (out === null) return null;
  let head = "";
  const entries = {};
  let count = 0;
  for (const record of out.split("\0")) {
    if (record === "") continue;
    if (record.startsWith("# branch.oid ")) {
      head = record.slice("# branch.oid ".length);
      continue;
    }
    if (record.startsWith("#")) continue;
    // 1 XY sub mH mI mW hH hI path | u XY sub m1 m2 m3 mW h1 h2 h3 path | ? path | ! path
    const kind = record[0];
    const fields = kind === "1" ? 8 : kind === "u" ? 10 : kind === "2" ? 9 : 1;
    let at = 0;
    for (let i = 0; i < fields && at !== -1; i++) at = record.indexOf(" ", at + 1);
    if (at === -1) continue;
    const path = record.slice(at + 1);
    if (++count > MAX_ENTRIES) return { head, entries: null, digest: createHash("sha256").update(out).digest("hex") };
    let size = -1;
    let mtime = -1;
    try {
      const st = lstatSync(join(top, path));
      size = st.size;
      mtime = st.mtimeMs;
    } catch {}
    entries[path] = `${record.slice(0, kind === "?" ? 1 : 4)}:${size}:${mtime}`;
  }
  return { head, entries };
}

/** What changed in a work tree between two snapshots: the paths, and whether commits were made. */
export function changesBetween(before, after) {
  if (before.entries === null || after.entries === null) {
    const same = before.head === after.head && before.digest === after.digest && (before.entries === null) === (after.entries === null);
    return same ? [] : ["(many files)"];
  }
  const paths = new Set([...Object.keys(before.entries), ...Object.keys(after.entries)]);
  const changed = [...paths].filter((p) => before.entries[p] !== after.entries[p]).sort();
  if (before.head !== after.head) changed.push("(new commits)");
  return changed;
}

/** $CAIRN_HOME/claude-code (default ~/.cairn/claude-code), where the per-session state lives. */
function stateDir(env = process.env) {
  return join(env.CAIRN_HOME || join(homedir(), ".cairn"), "claude-code");
}

/** One file per session (and transcript), named by a hash: a session id is never a path. */
function statePath(input, env) {
  const key = createHash("sha256")
    .update(`${input.session_id ?? ""}\0${input.transcript_path ?? ""}`)
    .digest("hex")
    .slice(0, 32);
  return join(stateDir(env), `stop-${key}.json`);
}

function loadState(path) {
  try {
    const state = JSON.parse(readFileSync(path, "utf8"));
    if (state && typeof state === "object" && state.trees && typeof state.trees === "object") return state;
  } catch {}
  return { receipts: 0, trees: {} };
}

/** Written to a temporary file created exclusively (never through a link), then renamed over the old one. */
function saveState(path, state) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
    try {
      writeFileSync(fd, JSON.stringify(state));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch {
    // No state kept: the next stop falls back to the transcript, as before there was any.
  }
}

/** Removes a few state files of sessions long over, so the directory stays small. */
function pruneStates(dir, now) {
  try {
    for (const name of readdirSync(dir).slice(0, 200)) {
      if (!name.startsWith("stop-")) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > STATE_TTL_MS) rmSync(path, { force: true });
    }
  } catch {}
}

/** The work trees of the session: its cwd's first, then those of files its tools wrote; at most MAX_TREES. */
function treesOf(cwd, written) {
  const cache = new Map();
  const trees = new Map(); // top -> files the tools wrote there (relative)
  const add = (top, file) => {
    if (top === null) return;
    if (!trees.has(top)) {
      if (trees.size >= MAX_TREES) return;
      trees.set(top, new Set());
    }
    if (file) trees.get(top).add(relative(top, file) || file);
  };
  if (existsSync(cwd)) add(workTreeOf(resolve(cwd), cache), null);
  for (const file of written) add(workTreeOf(existingDir(file), cache), file);
  return trees;
}

function reminder(changed) {
  const where = changed.map(([top, files]) => {
    const shown = files.slice(0, MAX_NAMED).join(", ");
    return `${top} (${shown}${files.length > MAX_NAMED ? ` and ${files.length - MAX_NAMED} more` : ""})`;
  });
  return {
    decision: "block",
    reason:
      `This session changed files in ${where.join("; ")} and left no Cairn receipt for them. ` +
      "Before you stop, leave one: call the receipt_create tool of the cairn MCP server (or follow /cairn:receipt) " +
      "with what changed, who is affected, before and after, evidence, the outcome, what a human must do, what remains and what was learned. " +
      "If this work needs no receipt (a scratch edit, an experiment), say so in one line and stop; you will not be reminded again until files change.",
  };
}

/**
 * What the hook answers for one input: the JSON to print, or null to print nothing (let the
 * stop through; for SessionStart, record where the session's work trees stand).
 */
export async function decide(input, env = process.env) {
  if (input === null || typeof input !== "object") return null;
  const cwd = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : process.cwd();
  const path = statePath(input, env);
  const now = Date.now();

  if (input.hook_event_name === "SessionStart") {
    const state = loadState(path);
    for (const top of treesOf(cwd, []).keys()) {
      const snap = snapshotOf(top);
      if (snap && !state.trees[top]) state.trees[top] = snap;
    }
    saveState(path, state);
    pruneStates(stateDir(env), now);
    return null;
  }

  if (input.stop_hook_active === true) return null; // it already blocked once: never twice in a row
  if (typeof input.transcript_path !== "string" || input.transcript_path === "") return null;
  const text = readTranscriptText(input.transcript_path);
  if (text === null) return null;
  const { written, receipts } = readTranscript(text, cwd);
  const state = loadState(path);
  const newReceipt = receipts > (state.receipts ?? 0);

  const changed = [];
  const snapshots = {};
  for (const [top, files] of treesOf(cwd, written)) {
    const snap = snapshotOf(top);
    if (snap) snapshots[top] = snap;
    const before = state.trees[top];
    if (newReceipt && files.size === 0) continue; // a receipt since the last stop, and no tool write after it
    if (before && snap) {
      // Against the state at the last receipt or reminder: tool and shell changes alike, and nothing twice.
      const paths = changesBetween(before, snap);
      if (paths.length > 0) changed.push([top, paths]);
    } else if (files.size > 0) {
      changed.push([top, [...files]]);
    }
  }
  // The state to compare the next stop with: this one, when it reminds or a receipt was left;
  // trees seen for the first time start from here too.
  const next = { receipts, trees: { ...state.trees }, at: new Date(now).toISOString() };
  for (const [top, snap] of Object.entries(snapshots)) {
    if (changed.length > 0 || newReceipt || !next.trees[top]) next.trees[top] = snap;
  }
  saveState(path, next);
  return changed.length > 0 ? reminder(changed) : null;
}

async function readStdin(limit) {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > limit) return null;
  }
  return text;
}

async function main() {
  // Whatever happens, the session may stop within the budget: print nothing and exit.
  setTimeout(() => {
    process.stderr.write("cairn stop hook: out of time; letting the stop through.\n");
    process.exit(0);
  }, BUDGET_MS).unref();
  try {
    const text = await readStdin(1024 * 1024);
    let input;
    try {
      input = text === null ? undefined : JSON.parse(text);
    } catch {}
    if (input === undefined) {
      process.stderr.write("cairn stop hook: the hook input is not JSON; letting the stop through.\n");
      return;
    }
    const answer = await decide(input);
    if (answer) process.stdout.write(`${JSON.stringify(answer)}\n`);
  } catch {
    process.stderr.write("cairn stop hook: could not decide; letting the stop through.\n");
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
