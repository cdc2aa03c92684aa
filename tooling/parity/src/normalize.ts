/**
 * Replaces what legitimately differs between runs and surfaces — ids, share urls, times,
 * token ids, the acting user's name, the surface — with stable placeholders, numbering
 * ids by first appearance so "the same id twice" stays visible.
 */
export function normalize(value: unknown, actorName: string): unknown {
  const ids = new Map<string, string>();
  const placeholder = (id: string) => {
    if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
    return ids.get(id) as string;
  };
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    if (typeof v !== "string") return v;
    if (key === "surface") return "<surface>";
    if (key === "created_at" || key === "expires_at") return "<time>";
    if (key === "next_cursor") return "<cursor>";
    let s = v.replace(/https?:\/\/[^\s"<>]+\/s\/[A-Za-z0-9_-]{20,}/g, "<share-url>");
    s = s.replace(/\b(art|run|drp|tok|usr)_[0-9a-z]{26}\b/g, placeholder);
    return s.split(actorName).join("<user>");
  };
  return walk(value);
}

/** A small line diff for failure messages. */
export function diff(expected: unknown, actual: unknown): string {
  const a = JSON.stringify(expected, null, 2).split("\n");
  const b = JSON.stringify(actual, null, 2).split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (a[i] !== undefined) out.push(`- ${a[i]}`);
    if (b[i] !== undefined) out.push(`+ ${b[i]}`);
    if (out.length > 40) break;
  }
  return out.join("\n");
}
