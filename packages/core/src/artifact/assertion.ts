import type { Provenance } from "./schemas.js";

const SURFACE_LABEL: { readonly [S in Provenance["surface"]]: string } = {
  rest: "REST",
  mcp: "MCP",
  cli: "CLI",
  web: "the web",
};

/**
 * Whose claim this is, for the card header: "Receipt asserted by claude · opus-5 for sam,
 * via MCP". It says who asserted, never that anything was verified.
 */
export function describeAssertion(provenance: Provenance, noun = "Receipt"): string {
  const who = provenance.model ? `${provenance.actor.name} · ${provenance.model}` : provenance.actor.name;
  return `${noun} asserted by ${who} for ${provenance.on_behalf_of}, via ${SURFACE_LABEL[provenance.surface]}`;
}
