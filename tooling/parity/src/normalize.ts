/**
 * Replaces what legitimately differs between runs and surfaces — ids, share urls, times, request ids (left out),
 * token ids and secrets, the users' names, the surface, an inbox item's age — with stable placeholders,
 * numbering ids by first appearance so "the same id twice" stays visible. `names` are
 * the acting user's, then the second user's of a row that has one.
 */
export function normalize(value: unknown, names: readonly string[]): unknown {
  const ids = new Map<string, string>();
  const placeholder = (id: string) => {
    if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
    return ids.get(id) as string;
  };
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    // How long an inbox item has waited moves between surfaces' calls.
    if (key === "age") return "<age>";
    if (v !== null && typeof v === "object") {
      // An error's request id is the request's own (SPEC §30): a surface with requests carries one, core's reference none.
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== "request_id")
          .map(([k, x]) => [k, walk(x, k)]),
      );
    }
    if (typeof v !== "string") return v;
    if (key === "surface") return "<surface>";
    // A decision names the surface that carried the answer (SPEC §32); each surface carries its own.
    if (key === "via" && ["web", "cli", "rest", "mcp-app"].includes(v)) return "<surface>";
    if ((key === "at" || key?.endsWith("_at") || key?.endsWith("_until")) && key !== "measure_at") return "<time>";
    if (key === "next_cursor") return "<cursor>";
    // Phrased for each surface's reader by core; run.ts checks it against core's table.
    if (key === "next_action") return "<next_action>";
    let s = v.replace(/https?:\/\/[^\s"<>]+\/s\/[A-Za-z0-9_-]{20,}/g, "<share-url>");
    s = s.replace(/https?:\/\/[^\s"<>]+\/signin\/link\/[A-Za-z0-9_-]{43}/g, "<signin-url>");
    s = s.replace(/\b(art|run|drp|tok|usr|team|sub|evt|chn|ntf|cmt)_[0-9a-z]{26}\b/g, placeholder);
    s = s.replace(/\bwhsec_[A-Za-z0-9+/=]{16,}/g, "<secret>");
    s = s.replace(/\bcairn_[A-Za-z0-9_-]{16,}/g, "<token>");
    s = s.replace(/\bcfk_[A-Za-z0-9_-]{16,}/g, "<feed-key>");
    // Longest first: one name may contain another (parity-1-1 and parity-1-12).
    for (const [i, name] of [...names.entries()].sort((a, b) => b[1].length - a[1].length)) s = s.split(name).join(i === 0 ? "<user>" : "<other>");
    return s;
  };
  return walk(value);
}

const MAX_DIFF_LINES = 40;

/** A line diff of the pretty-printed JSON (longest common subsequence), for failure messages. */
export function diff(expected: unknown, actual: unknown): string {
  const a = JSON.stringify(expected, null, 2).split("\n");
  const b = JSON.stringify(actual, null, 2).split("\n");
  // common[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  const at = (i: number, j: number) => (common[i] as Uint32Array)[j] as number;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      (common[i] as Uint32Array)[j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j >= b.length || (i < a.length && at(i + 1, j) >= at(i, j + 1))) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  const more = out.length - MAX_DIFF_LINES;
  return more > 0 ? [...out.slice(0, MAX_DIFF_LINES), `… and ${more} more changed lines`].join("\n") : out.join("\n");
}
