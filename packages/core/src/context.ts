import type { Store } from "./store/port.js";

export const SURFACES = ["rest", "mcp", "cli", "web"] as const;
export type Surface = (typeof SURFACES)[number];

export type TokenKind = "human" | "agent";

/** Who is calling, derived on the server from the bearer token — never from the request body. */
export interface Principal {
  user: { id: string; name: string; is_admin: boolean };
  token: { id: string; name: string; kind: TokenKind };
  /** Names of the teams the user belongs to. */
  teams: string[];
}

export interface CairnConfig {
  /** Base of share links, e.g. http://127.0.0.1:7373 (no trailing slash). */
  publicUrl: string;
}

export interface ServiceContext {
  store: Store;
  config: CairnConfig;
  principal: Principal;
  surface: Surface;
  now: () => Date;
}
