import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Document, type RulesetDefinition, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";

/** One finding, as a line a person can act on: the rule, where, and what it says. */
export type Finding = string;

/** Spectral's severities: 0 error, 1 warning, 2 information, 3 hint. */
const SPECTRAL_WARNING = 1;

/** Errors and warnings of Spectral's `spectral:oas` ruleset (the one SDK generators' docs point to). */
export async function spectralFindings(documentText: string): Promise<Finding[]> {
  const spectral = new Spectral();
  // The rulesets package's declared type is looser than spectral-core's; the ruleset itself is the one Spectral's CLI runs.
  spectral.setRuleset(oas as RulesetDefinition);
  const results = await spectral.run(new Document(documentText, Parsers.Json, "openapi.json"));
  return results
    .filter((r) => r.severity <= SPECTRAL_WARNING)
    .map((r) => `${r.severity === 0 ? "error" : "warning"} ${r.code} at ${r.path.join(".") || "(root)"}: ${r.message}`);
}

/** Errors and warnings of Redocly's `recommended` rules. */
export async function redoclyFindings(documentText: string): Promise<Finding[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: documentText, absoluteRef: "openapi.json", config });
  return problems
    .filter((p) => p.severity === "error" || p.severity === "warn")
    .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? "(root)"}: ${p.message}`);
}
