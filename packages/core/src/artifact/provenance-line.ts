import type { Surface } from "../context.js";
import type { Provenance } from "./schemas.js";

/** How each surface is named in the card header. The web is read-only, so it rarely appears. */
export const SURFACE_LABELS: { readonly [S in Surface]: string } = {
  rest: "REST",
  mcp: "MCP",
  cli: "CLI",
  web: "the web",
};

/** The parts of the card header, for a surface that styles them separately (e.g. an agent badge). */
export interface ProvenanceHeader {
  /** The whole line, e.g. "Receipt asserted by claude · opus-5 for sam, via MCP". */
  text: string;
  actor: string;
  actor_kind: Provenance["actor"]["kind"];
  model: string | null;
  on_behalf_of: string;
  surface: string;
}

/**
 * The card header says whose claim this is, from server-derived provenance (SPEC §13):
 * `{subject} asserted by {actor} · {model} for {user}, via {surface}`. With no model the
 * "· model" part is left out rather than shown as unknown. Pure, so every surface shows
 * the same words; it never says "verified".
 */
export function provenanceHeader(provenance: Provenance, subject = "Receipt", owner?: string): ProvenanceHeader {
  const { actor, model, on_behalf_of } = provenance;
  const surface = SURFACE_LABELS[provenance.surface];
  const claim = model ? `${actor.name} · ${model}` : actor.name;
  // A team's artifact names the team: "for sam in team:finance" (SPEC §24), not only the person.
  const team = owner?.startsWith("team:") ? ` in ${owner}` : "";
  return {
    text: `${subject} asserted by ${claim} for ${on_behalf_of}${team}, via ${surface}`,
    actor: actor.name,
    actor_kind: actor.kind,
    model: model || null,
    on_behalf_of,
    surface,
  };
}

export const provenanceLine = (provenance: Provenance, subject?: string, owner?: string) => provenanceHeader(provenance, subject, owner).text;

/** The header line of a stored artifact: a receipt (it has metadata) says "Receipt", anything else "Artifact"; a team's names the team. */
export const artifactProvenanceLine = (a: { provenance: Provenance; metadata: unknown; owner?: string }) =>
  provenanceLine(a.provenance, a.metadata ? "Receipt" : "Artifact", a.owner);
