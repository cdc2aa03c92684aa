/**
 * What the API says about itself (the OpenAPI document's `info`), in one place for every
 * surface that describes it. The license is the repository's (LICENSE, and `license` in
 * the root package.json); a test keeps the three the same.
 */
export const API_INFO = {
  title: "Cairn",
  description: "Structured receipts from agents and scripts: what changed, who is affected, evidence, outcome, and what a human must do.",
  license: { name: "MIT License", identifier: "MIT" },
} as const;

/**
 * Whom an integrator turns to: the server they talk to, whose docs page is at `/docs`.
 * A self-hosted server has no one fixed contact, so it names itself.
 */
export function apiContact(publicUrl: string): { name: string; url: string } {
  const base = publicUrl.replace(/\/+$/, "");
  return { name: URL.canParse(base) ? `Cairn at ${new URL(base).host}` : "Cairn", url: `${base}/docs` };
}
