import type { Issue } from "../errors.js";
import { isPlainObject } from "../json.js";
import { receiptExample } from "./example.js";

/**
 * The template `cairn receipt --template` prints (SPEC §24): the example receipt's shape,
 * every answer a placeholder `<fill in: …>` that says what to write and shows the
 * example's words. Submitted unedited — any field still holding one — it is refused as
 * `invalid`, naming each such field, on every surface (this narrows input on purpose:
 * SPEC §24). The example itself stays a valid receipt (the API documentation shows it).
 */
const fill = (what: string, example: string) => `<fill in: ${what}, e.g. "${example}">`;

/** A value that is (still) a template placeholder: the whole value, so real text that mentions one is never refused. */
const PLACEHOLDER = /^<fill in: [^\n]*>$/;

/** The link placeholder: a URL, so a template passes the link gate and is refused only as a template. */
export const PLACEHOLDER_URL = "https://example.com/fill-in-a-link-to-the-proof";

export function receiptTemplateValues(now: Date = new Date()) {
  const e = receiptExample(now);
  return {
    changed: fill("what changed, in one line", e.changed),
    affected: fill("who is affected", e.affected),
    before: fill("how it was before", e.before),
    after: fill("how it is now", e.after),
    evidence: [{ label: fill("what the link shows", e.evidence[0]?.label ?? ""), url: PLACEHOLDER_URL }],
    outcome: e.outcome,
    human_action: fill("what a person must do, or Nothing", e.human_action),
    remaining: [{ item: fill("what is left to do", e.remaining[0]?.item ?? ""), owner: fill("who does it", e.remaining[0]?.owner ?? "") }],
    learned: fill("what the system now knows", e.learned),
    tags: e.tags,
  };
}

const isPlaceholder = (value: string) => PLACEHOLDER.test(value) || value === PLACEHOLDER_URL;

/** Each field of a submitted receipt that still holds a template placeholder, by its dotted path. */
export function placeholderIssues(raw: unknown): Issue[] {
  const issues: Issue[] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === "string") {
      if (isPlaceholder(v.trim())) issues.push({ field: path, reason: "still holds the template's placeholder: write your own answer in its place" });
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}.${i}`);
    } else if (isPlainObject(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path === "" ? k : `${path}.${k}`);
    }
  };
  walk(raw, "");
  return issues;
}
