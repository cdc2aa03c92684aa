import { isPlainObject } from "@cairn/core/json";
/** What the receipt command's flags contribute on top of the file. */
export interface ReceiptFlags {
  title?: string;
  tags: string[];
  model?: string;
  owner?: string;
  assignee?: string;
  details?: string;
  expiresIn?: number;
}

/**
 * Flags override the file's fields; `--tag` adds to its tags. A document that is not an
 * object, or whose `tags` is not a list, is passed on unchanged so validation names the
 * field that is wrong instead of the CLI papering over it.
 */
export function applyReceiptFlags(doc: unknown, flags: ReceiptFlags): unknown {
  if (!isPlainObject(doc)) return doc;
  const out: Record<string, unknown> = { ...doc };
  if (flags.title !== undefined) out.title = flags.title;
  if (flags.model !== undefined) out.model = flags.model;
  if (flags.owner !== undefined) out.owner = flags.owner;
  if (flags.assignee !== undefined) out.assignee = flags.assignee;
  if (flags.details !== undefined) out.details = flags.details;
  if (flags.expiresIn !== undefined) out.expires_in = flags.expiresIn;
  if (flags.tags.length > 0) {
    if (out.tags === undefined) out.tags = flags.tags;
    else if (Array.isArray(out.tags)) out.tags = [...out.tags, ...flags.tags];
  }
  return out;
}
