/**
 * The one logger. It prints only what it is handed field by field — short primitive
 * values under names the caller chose — and, for an error, its class, its SQLSTATE or
 * errno code and the stack frames of our own code. Never an error's message or its other
 * properties: a driver error carries the SQL text and its parameters (rendered bodies,
 * share tokens), and messages quote values ("invalid input syntax for type integer: …").
 * So a value can only reach the log by someone writing it into a field on purpose.
 */

/** A field value: short primitives only (strings are capped and their control characters escaped). */
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;

/** What `error`/`warn` require: a stable code naming what failed; the request id when there is one. */
export interface ErrorFields extends LogFields {
  code: string;
  requestId?: string | undefined;
}

export interface Logger {
  /** An operational event, e.g. `listening`; the event name is code, never data. */
  info(event: string, fields?: LogFields): void;
  warn(fields: ErrorFields, err?: unknown): void;
  error(fields: ErrorFields, err?: unknown): void;
}

export interface LoggerOptions {
  /** Where a finished line goes (default: console.error, i.e. stderr). Tests capture it here. */
  write?: (line: string) => void;
  /** `text` (default): `cairn LEVEL EVENT key=value…`; `json`: one JSON object per line, for log shippers (CAIRN_LOG_FORMAT). */
  format?: LogFormat;
}

export type LogFormat = "text" | "json";

/** CAIRN_LOG_FORMAT: `text` (default) or `json`; anything else is refused when a server starts. */
export function logFormatFrom(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const raw = env.CAIRN_LOG_FORMAT?.trim().toLowerCase();
  if (!raw || raw === "text") return "text";
  if (raw === "json") return "json";
  throw new Error(`CAIRN_LOG_FORMAT must be text or json (got ${JSON.stringify(env.CAIRN_LOG_FORMAT)}).`);
}

const MAX_VALUE = 200;
const MAX_FRAMES = 12;
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,59}$/;
const CODE = /^[A-Z0-9_]{1,40}$/;

/** Field names are identifiers; anything else is dropped rather than printed. */
const safeKey = (key: string) => NAME.test(key);

function safeValue(value: Exclude<LogValue, undefined>): string {
  if (typeof value !== "string") return String(value);
  const capped = value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point
  const escaped = capped.replace(/[\u0000-\u001f\u007f-\u009f"\\\u2028\u2029]/g, (ch) =>
    ch === '"' || ch === "\\" ? `\\${ch}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return /[\s=]/.test(escaped) || escaped === "" ? `"${escaped}"` : escaped;
}

function renderFields(fields: LogFields): string {
  return Object.entries(fields)
    .filter(([k, v]) => safeKey(k) && (v === null || ["string", "number", "boolean"].includes(typeof v)))
    .map(([k, v]) => `${k}=${safeValue(v as Exclude<LogValue, undefined>)}`)
    .join(" ");
}

/**
 * What an error contributes: its class, a code when it has the shape of one (SQLSTATE
 * `22021`, errno `ECONNREFUSED`), and frames of our code (not dependencies, not Node's).
 * Frame lines name files and functions, never values.
 */
export function describeError(err: unknown): { fields: LogFields; frames: string[] } {
  if (typeof err !== "object" || err === null) return { fields: { error: typeof err }, frames: [] };
  const e = err as { name?: unknown; code?: unknown; stack?: unknown; constructor?: { name?: unknown } };
  const named = (v: unknown) => (typeof v === "string" && NAME.test(v) ? v : undefined);
  const name = named(e.name) ?? named(e.constructor?.name) ?? "Object";
  const code = typeof e.code === "string" && CODE.test(e.code) ? e.code : undefined;
  const stack = typeof e.stack === "string" ? e.stack.split("\n") : [];
  const frames = stack
    .filter((line) => /^\s+at /.test(line))
    .filter((line) => !line.includes("node_modules") && !line.includes("node:internal") && !line.includes("(native)"))
    .slice(0, MAX_FRAMES)
    .map((line) => `    ${line.trim().slice(0, 300)}`);
  return { fields: { error: name, ...(code !== undefined && { error_code: code }) }, frames };
}

/** JSON's names: snake_case (`requestId` → `request_id`), and the access log's `ms` is `duration` (milliseconds). */
const jsonKey = (key: string) => (key === "ms" ? "duration" : key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`));

/**
 * One JSON object: time, level, the event (info) or code (warn, error), then the same
 * explicit fields as the text line, capped the same way, and our frames as an array.
 */
function renderJson(level: string, head: string, fields: LogFields, frames: readonly string[], now: Date): string {
  const line: Record<string, unknown> = { time: now.toISOString(), level, [level === "info" ? "event" : "code"]: head };
  for (const [k, v] of Object.entries(fields)) {
    if (!safeKey(k) || !(v === null || ["string", "number", "boolean"].includes(typeof v)) || jsonKey(k) in line) continue;
    line[jsonKey(k)] = typeof v === "string" && v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE)}…` : v;
  }
  if (frames.length > 0) line.frames = frames.map((f) => f.trim());
  // Escaped U+2028/2029 keep one object on one line for every reader, not only JSON.parse.
  return JSON.stringify(line)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => console.error(line));
  const json = options.format === "json";
  const emit = (level: string, head: string, fields: LogFields, err?: unknown) => {
    const described = err === undefined ? { fields: {}, frames: [] } : describeError(err);
    if (json) {
      write(renderJson(level, head, { ...fields, ...described.fields }, described.frames, new Date()));
      return;
    }
    const body = renderFields({ ...fields, ...described.fields });
    write([`cairn ${level} ${head}${body ? ` ${body}` : ""}`, ...described.frames].join("\n"));
  };
  return {
    info: (event, fields = {}) => emit("info", NAME.test(event) ? event : "event", fields),
    warn: ({ code, ...fields }, err) => emit("warn", NAME.test(code) ? code : "warning", fields, err),
    error: ({ code, ...fields }, err) => emit("error", NAME.test(code) ? code : "error", fields, err),
  };
}

/** The process logger used when a caller did not pass its own. */
export const defaultLogger: Logger = createLogger({ format: process.env.CAIRN_LOG_FORMAT?.trim().toLowerCase() === "json" ? "json" : "text" });
