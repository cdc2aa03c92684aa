import { ARTIFACT_RESOURCE_PREFIX, artifactIdOfResourceUri } from "../artifact/resource-uri.js";
import type { AskInput } from "../decision/schemas.js";
import type { DropCategory } from "../drops/classification.js";
import type { CairnErrorCode, Issue } from "../errors.js";
import { isPlainObject } from "../json.js";
import { DERIVED_TITLE_LENGTH, LIMITS } from "../limits.js";
import { RUN_RESOURCE_PREFIX, runIdOfResourceUri } from "../run/resource-uri.js";
import { normalizeTags } from "../tags.js";
import { isStorable, UNSTORABLE_REASON } from "../text.js";
import { parseWith, ROOT_FIELD } from "../validation.js";
import { isRegisteredSchema, registeredSchemaIds } from "./registry.js";
import { DEFAULT_HUMAN_ACTION, RECEIPT_SCHEMA_ID, ReceiptCreateInput, type ReceiptMetadata } from "./schemas.js";
import { placeholderIssues } from "./template.js";

/** A gate's typed refusal: the category decides the drop classification, the issues say what to fix. */
export interface Rejection {
  category: DropCategory;
  issues: Issue[];
  /** The policy field or custom gate that refused (kept on the drop so doctor can tell whether it is still on). */
  rule?: string;
  /** The error code when it is not the category's usual one (an owner the caller may not use is `forbidden`). */
  code?: CairnErrorCode;
}

/** A receipt that passed the static gates, in canonical form, ready to render. */
export interface ValidReceipt {
  metadata: ReceiptMetadata;
  title: string;
  details?: string;
  tags: string[];
  /** The same tags as sent, before lowercasing (same order): what the secret scanner reads. */
  sentTags?: string[];
  model?: string;
  owner?: string;
  /** The user who must act (SPEC §20); checked against the owner by the assignee gate. */
  assignee?: string;
  /** The question with fixed answers (SPEC §32), as sent: `answer_by` is made an instant by the gates, which know the time. */
  ask?: AskInput;
  /** Seconds until expiry when sooner than the owner's TTL; an artifact field, not rendered. */
  expiresIn?: number;
}

export type ReceiptValidation = { ok: true; value: ValidReceipt } | { ok: false; rejection: Rejection };

export const RECEIPT_TAG = "receipt";
const ALLOWED_PROTOCOLS = new Set(["https:", "http:"]);
const CAIRN_MCP_PREFIX = "mcp://cairn/";

/** unsafe-link gate: evidence urls must parse, and use an allowed scheme. */
function linkIssues(evidence: unknown): { invalid: Issue[]; unsafe: Issue[] } {
  const invalid: Issue[] = [];
  const unsafe: Issue[] = [];
  if (!Array.isArray(evidence)) return { invalid, unsafe };
  evidence.forEach((entry, i) => {
    const url = isPlainObject(entry) ? entry.url : undefined;
    if (typeof url !== "string" || url.trim() === "") return;
    const field = `evidence.${i}.url`;
    const trimmed = url.trim();
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      invalid.push({ field, reason: "is not a valid URL" });
      return;
    }
    if (trimmed.startsWith(CAIRN_MCP_PREFIX)) {
      // mcp://cairn/ links name Cairn's own resources: an artifact or a run, by form.
      if (artifactIdOfResourceUri(trimmed) === null && runIdOfResourceUri(trimmed) === null) {
        invalid.push({ field, reason: `must name an artifact or a run: ${ARTIFACT_RESOURCE_PREFIX}<id> or ${RUN_RESOURCE_PREFIX}<run id>` });
      }
    } else if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) {
      unsafe.push({ field, reason: "must use https:, http: or mcp://cairn/" });
    }
  });
  return { invalid, unsafe };
}

/** too-thin gate: a TL;DR of one or two words tells a reader nothing. */
function thinnessIssues(changed: unknown): Issue[] {
  if (typeof changed !== "string" || changed.trim() === "") return [];
  const words = changed.trim().split(/\s+/).length;
  return words < LIMITS.minChangedWords
    ? [
        {
          field: "changed",
          reason: `has ${words} word${words === 1 ? "" : "s"}; say what changed in at least ${LIMITS.minChangedWords}`,
          limit: LIMITS.minChangedWords,
        },
      ]
    : [];
}

/** The title a receipt gets when the caller gives none: the first line of `changed`, cut to 120 characters. */
export function deriveTitle(changed: string): string {
  const firstLine = changed.split("\n", 1)[0] ?? changed;
  return firstLine.length > DERIVED_TITLE_LENGTH ? `${firstLine.slice(0, DERIVED_TITLE_LENGTH - 1).trimEnd()}…` : firstLine;
}

/** Lowercased and de-duplicated tags, and beside each the spelling it was sent in. */
function tagsOf(sent: readonly string[]): { tags: string[]; sentTags: string[] } {
  const tags = normalizeTags(sent, [RECEIPT_TAG]);
  const firstSpelling = new Map<string, string>();
  for (const t of sent) if (!firstSpelling.has(t.toLowerCase())) firstSpelling.set(t.toLowerCase(), t);
  return { tags, sentTags: tags.map((t) => firstSpelling.get(t) ?? t) };
}

/**
 * The static gates, in order: schema, shape, links, thinness. Shape, link and thinness
 * issues are collected in one pass so a caller can fix everything at once; the
 * rejection's category is the earliest gate that failed.
 */
/** What a receipt that is one value (a sentence, a number, a list) is told, JSON or YAML (SPEC §24). */
export const NOT_AN_OBJECT_REASON =
  "must be an object of fields — a JSON object, or YAML with one `name: value` per line (e.g. `changed: Rotated the key`) — not a mapping-less value such as a sentence";

/** Whether a sent human_action leaves the person nothing to do (omitted, or "Nothing"): an ask then has no question. */
const asksNothing = (humanAction: unknown) => humanAction === undefined || (typeof humanAction === "string" && humanAction.trim() === DEFAULT_HUMAN_ACTION);

export function validateReceiptInput(raw: unknown): ReceiptValidation {
  if (!isPlainObject(raw)) {
    return { ok: false, rejection: { category: "invalid", issues: [{ field: ROOT_FIELD, reason: NOT_AN_OBJECT_REASON }] } };
  }
  const schema = raw.schema;
  if (typeof schema === "string" && !isStorable(schema)) {
    return { ok: false, rejection: { category: "invalid", issues: [{ field: "schema", reason: UNSTORABLE_REASON }] } };
  }
  if (schema !== undefined && (typeof schema !== "string" || !isRegisteredSchema(schema))) {
    const known = registeredSchemaIds().join(", ");
    return {
      ok: false,
      rejection: { category: "unknown-schema", issues: [{ field: "schema", reason: `names no registered schema (known: ${known})` }] },
    };
  }

  const parsed = parseWith(ReceiptCreateInput, raw);
  const links = linkIssues(raw.evidence);
  const thin = thinnessIssues(raw.changed);
  // The unedited template is not a receipt (SPEC §24): each field still holding a placeholder is named.
  const invalid = [...(parsed.ok ? [] : parsed.issues), ...links.invalid, ...placeholderIssues(raw)];

  if (raw.ask !== undefined && asksNothing(raw.human_action)) {
    invalid.push({ field: "human_action", reason: 'is the question an ask puts to the person, so it must not be "Nothing" when `ask` is given' });
  }
  if (parsed.ok) {
    const tags = normalizeTags(parsed.value.tags ?? [], [RECEIPT_TAG]);
    if (tags.length > LIMITS.tags) {
      invalid.push({ field: "tags", reason: `has more than ${LIMITS.tags} tags once "${RECEIPT_TAG}" is added`, limit: LIMITS.tags });
    }
  }
  const gates: Array<[DropCategory, Issue[]]> = [
    ["invalid", invalid],
    ["unsafe-link", links.unsafe],
    ["too-thin", thin],
  ];
  const failed = gates.find(([, issues]) => issues.length > 0);
  if (failed || !parsed.ok) {
    return {
      ok: false,
      rejection: { category: failed?.[0] ?? "invalid", issues: gates.flatMap(([, issues]) => issues) },
    };
  }

  const v = parsed.value;
  const metadata: ReceiptMetadata = {
    schema: RECEIPT_SCHEMA_ID,
    changed: v.changed,
    affected: v.affected,
    before: v.before,
    after: v.after,
    evidence: v.evidence.map((e) => ({ label: e.label, url: e.url })),
    ...(v.evidence_note !== undefined && { evidence_note: v.evidence_note }),
    outcome: {
      status: v.outcome.status,
      ...(v.outcome.summary !== undefined && { summary: v.outcome.summary }),
      ...(v.outcome.measure_at !== undefined && { measure_at: v.outcome.measure_at }),
    },
    human_action: v.human_action ?? DEFAULT_HUMAN_ACTION,
    remaining: v.remaining.map((r) => ({ item: r.item, owner: r.owner })),
    learned: v.learned,
    ...(v.follows !== undefined && { follows: v.follows }),
  };
  return {
    ok: true,
    value: {
      metadata,
      title: v.title ?? deriveTitle(v.changed),
      ...tagsOf(v.tags ?? []),
      ...(v.details !== undefined && { details: v.details }),
      ...(v.model !== undefined && { model: v.model }),
      ...(v.owner !== undefined && { owner: v.owner }),
      ...(v.assignee !== undefined && { assignee: v.assignee }),
      ...(v.ask !== undefined && { ask: v.ask }),
      ...(v.expires_in !== undefined && { expiresIn: v.expires_in }),
    },
  };
}
