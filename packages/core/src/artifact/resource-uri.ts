import { ARTIFACT_ID } from "../ids.js";

/**
 * Artifacts as MCP resources: `mcp://cairn/artifacts/<id>`. Core owns the form because
 * evidence links of scheme `mcp://cairn/` must name exactly these resources (the link
 * gate checks it) and every surface that shows or resolves such a link agrees on it.
 */
export const ARTIFACT_RESOURCE_PREFIX = "mcp://cairn/artifacts/";

/** The resource template a client expands (RFC 6570). */
export const ARTIFACT_RESOURCE_TEMPLATE = `${ARTIFACT_RESOURCE_PREFIX}{id}`;

/** Anchored pattern of a valid artifact resource URI (also published in the JSON Schema). */
export const ARTIFACT_RESOURCE_PATTERN = `^${ARTIFACT_RESOURCE_PREFIX}${ARTIFACT_ID.source.slice(1)}`;

export const artifactResourceUri = (id: string): string => `${ARTIFACT_RESOURCE_PREFIX}${id}`;

/** The artifact id a resource URI names, or null when the URI is not of the form. */
export function artifactIdOfResourceUri(uri: string): string | null {
  if (!uri.startsWith(ARTIFACT_RESOURCE_PREFIX)) return null;
  const id = uri.slice(ARTIFACT_RESOURCE_PREFIX.length);
  return ARTIFACT_ID.test(id) ? id : null;
}
