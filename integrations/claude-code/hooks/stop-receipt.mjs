#!/usr/bin/env node
// Claude Code `Stop` hook of the Cairn plugin. It reads the hook's JSON on stdin
// (session_id, transcript_path, cwd, stop_hook_active, ...) and blocks the stop once, with
// a reminder, when the session changed files in a git work tree after its last receipt
// (or left none). Blocking is `{"decision": "block", "reason": ...}` on stdout. Anything it
// cannot read (no transcript, no git, malformed input) lets the stop through: a reminder
// must never keep a session from ending.
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** Claude Code's tools that write files, and the input field naming the file. */
const FILE_TOOLS = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
/** The cairn MCP tool, however the client prefixes it (`mcp__cairn__…`, `mcp__plugin_cairn_cairn__…`). */
const RECEIPT_TOOL = /(^|__)receipt_create$/;
/** A receipt left from the shell counts too. */
const RECEIPT_COMMAND = /(^|[\s;&|(])cairn\s+receipt\b(?![^\n]*--(dry-run|template)\b)/;
const MAX_NAMED = 5;

/** The top of the git work tree holding directory `dir`, or null (not a work tree, or no git). */
function workTreeOf(dir, cache) {
  if (cache.has(dir)) return cache.get(dir);
  let top = null;
  try {
    top = execFileSync("git", ["-C", dir, "rev-parse", "--show-toplevel"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim() || null;
  } catch {
    top = null;
  }
  cache.set(dir, top);
  return top;
}

/** The nearest directory of `path` that exists: the file (or its directory) may be gone since. */
function existingDir(path) {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Walks the transcript (JSONL, one event per line): file writes by Claude Code's tools,
 * and receipt calls whose result was not an error. Returns the files written after the
 * last receipt.
 */
export async function readTranscript(path, cwd) {
  const writes = [];
  const receipts = new Map(); // tool_use id -> index in writes at the time of the call
  let lastReceipt = -1;
  const lines = createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
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
  return writes.slice(Math.max(0, lastReceipt));
}

/** What the hook answers for one Stop input: the JSON to print, or null to let the stop through. */
export async function decide(input) {
  if (input === null || typeof input !== "object") return null;
  if (input.stop_hook_active === true) return null; // it already blocked once: never twice in a row
  if (typeof input.transcript_path !== "string" || input.transcript_path === "") return null;
  const cwd = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : process.cwd();
  let written;
  try {
    written = await readTranscript(input.transcript_path, cwd);
  } catch {
    return null;
  }
  const trees = new Map();
  const cache = new Map();
  for (const file of written) {
    const top = workTreeOf(existingDir(file), cache);
    if (top === null) continue;
    const files = trees.get(top) ?? new Set();
    files.add(relative(top, file) || file);
    trees.set(top, files);
  }
  if (trees.size === 0) return null;
  const where = [...trees].map(([top, files]) => {
    const names = [...files];
    const shown = names.slice(0, MAX_NAMED).join(", ");
    return `${top} (${shown}${names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : ""})`;
  });
  return {
    decision: "block",
    reason:
      `This session changed files in ${where.join("; ")} and left no Cairn receipt for them. ` +
      "Before you stop, leave one: call the receipt_create tool of the cairn MCP server (or follow /cairn:receipt) " +
      "with what changed, who is affected, before and after, evidence, the outcome, what a human must do, what remains and what was learned. " +
      "If this work needs no receipt (a scratch edit, an experiment), say so in one line and stop.",
  };
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  let input;
  try {
    input = JSON.parse(text);
  } catch {
    process.stderr.write("cairn stop hook: the hook input is not JSON; letting the stop through.\n");
    return;
  }
  const answer = await decide(input);
  if (answer) process.stdout.write(`${JSON.stringify(answer)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
