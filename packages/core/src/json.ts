/** Light helpers over parsed JSON, shared by core and the surfaces (`@cairn/core/json` imports nothing). */

/** A JSON object: not null, not an array. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** JSON with sorted keys and undefined members left out: the same value in another key order gives the same text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/** The end of the string starting at `i` (a quote), or the offset of what breaks it as `-1 - offset`. */
function scanString(t: string, i: number): number {
  for (let j = i + 1; ; j++) {
    const c = t[j];
    if (c === undefined || c < " ") return -1 - j;
    if (c === '"') return j + 1;
    if (c === "\\") {
      const e = t[j + 1];
      if (e === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(t.slice(j + 2, j + 6))) return -1 - (j + 1);
        j += 5;
      } else if (e !== undefined && ESCAPES.has(e)) j++;
      else return -1 - (j + 1);
    }
  }
}

/**
 * The offset of the first character that keeps `text` from being JSON (its length when
 * it ends too soon), or undefined when it is JSON. Iterative, so deep nesting cannot
 * overflow the stack; run only after JSON.parse failed, to say where.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const open: string[] = [];
  let mode: "value" | "valueOrClose" | "key" | "keyOrClose" | "colon" | "after" = "value";
  let i = 0;
  for (;;) {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
    if (i >= text.length) return mode === "after" && open.length === 0 ? undefined : i;
    const ch = text[i];
    if (mode === "colon") {
      if (ch !== ":") return i;
      i++;
      mode = "value";
    } else if (mode === "after") {
      const top = open.at(-1);
      if (top === undefined) return i;
      if (ch === ",") {
        i++;
        mode = top === "{" ? "key" : "value";
      } else if (ch === (top === "{" ? "}" : "]")) {
        open.pop();
        i++;
      } else return i;
    } else if (mode === "key" || mode === "keyOrClose") {
      if (ch === "}" && mode === "keyOrClose") {
        open.pop();
        i++;
        mode = "after";
        continue;
      }
      if (ch !== '"') return i;
      const end = scanString(text, i);
      if (end < 0) return -1 - end;
      i = end;
      mode = "colon";
    } else {
      if (ch === "]" && mode === "valueOrClose") {
        open.pop();
        i++;
        mode = "after";
        continue;
      }
      if (ch === "{" || ch === "[") {
        open.push(ch);
        i++;
        mode = ch === "{" ? "keyOrClose" : "valueOrClose";
        continue;
      }
      if (ch === '"') {
        const end = scanString(text, i);
        if (end < 0) return -1 - end;
        i = end;
      } else {
        NUMBER.lastIndex = i;
        const number = NUMBER.exec(text);
        const literal = ["true", "false", "null"].find((w) => text.startsWith(w, i));
        if (number && number[0].length > 0) i += number[0].length;
        else if (literal) i += literal.length;
        else return i;
      }
      mode = "after";
    }
  }
}

/**
 * Why `text` is not JSON, for an issue: V8's message without the snippet of input some
 * messages quote (issues never echo what was submitted), and where, as line and column
 * (1-based). `err` is what `JSON.parse(text)` threw.
 */
export function jsonSyntaxReason(text: string, err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const message = (raw.split(', "')[0] ?? "").replace(/\s*(?:in JSON )?at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)$/, "");
  const at = /at position (\d+)/.exec(raw);
  const position = jsonErrorOffset(text) ?? (at ? Number(at[1]) : undefined);
  if (position === undefined) return `is not valid JSON: ${message}`;
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return `is not valid JSON: ${message} at line ${line}, column ${column}`;
}

/**
 * The path to the first array or object nested deeper than `limit` levels (the value
 * itself is level 1), or undefined when none is. Iterative and run before anything
 * walks the value recursively: JSON.parse builds any depth, but JSON.stringify, the
 * validators and the scanners recurse and would overflow the stack.
 */
export function pathPastDepth(value: unknown, limit: number): Array<string | number> | undefined {
  type Frame = { value: unknown; level: number; key: string | number; parent: Frame | undefined };
  const pending: Frame[] = [{ value, level: 1, key: "", parent: undefined }];
  for (let frame = pending.pop(); frame !== undefined; frame = pending.pop()) {
    const v = frame.value;
    if (typeof v !== "object" || v === null) continue;
    if (frame.level > limit) {
      const path: Array<string | number> = [];
      for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.push(f.key);
      return path.reverse();
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown];
      if (typeof child === "object" && child !== null) pending.push({ value: child, level: frame.level + 1, key, parent: frame });
    }
  }
  return undefined;
}

/** Why an input nested past `limit` levels is refused, in the same words on every surface. */
export const nestingReason = (limit: number) => `is nested deeper than ${limit} levels of arrays and objects`;
