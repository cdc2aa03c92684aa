/** The surfaces a call can come through, recorded in provenance. A leaf module: types every layer shares. */
export const SURFACES = ["rest", "mcp", "cli", "web"] as const;
export type Surface = (typeof SURFACES)[number];

export type TokenKind = "human" | "agent";
