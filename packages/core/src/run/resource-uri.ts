/**
 * Runs as MCP resources: `mcp://cairn/runs/<id>` (SPEC §21). Core owns the form, like the
 * artifact one, because an `mcp://cairn/` evidence link must name one of the two.
 */
export const RUN_RESOURCE_PREFIX = "mcp://cairn/runs/";

/** The resource template a client expands (RFC 6570). */
export const RUN_RESOURCE_TEMPLATE = `${RUN_RESOURCE_PREFIX}{id}`;

/** A run id as `newId("run")` makes it. */
const RUN_ID = /^run_[0-9a-hjkmnp-tv-z]{26}$/;

/** Anchored pattern of a valid run resource URI (also published in the JSON Schema). */
export const RUN_RESOURCE_PATTERN = "^mcp://cairn/runs/run_[0-9a-hjkmnp-tv-z]{26}$";

/** The run id a resource URI names, or null when the URI is not of the form. */
export function runIdOfResourceUri(uri: string): string | null {
  if (!uri.startsWith(RUN_RESOURCE_PREFIX)) return null;
  const id = uri.slice(RUN_RESOURCE_PREFIX.length);
  return RUN_ID.test(id) ? id : null;
}
