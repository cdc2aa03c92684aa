import type { Artifact, CairnErrorBody, Principal } from "@cairn/core";

/** A user every driver acts as; each driver gets its own so duplicates never cross drivers. */
export interface Actor {
  name: string;
  token: string;
  principal: Principal;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: CairnErrorBody };

/** One surface. Adding a surface is one object implementing this. */
export interface Driver {
  name: string;
  /** The provenance surface this driver's writes must record, or null if it cannot write. */
  surface: "rest" | "mcp" | "cli" | "web" | null;
  createReceipt?(actor: Actor, input: unknown): Promise<Outcome>;
  read?(actor: Actor, id: string): Promise<Outcome>;
  search?(actor: Actor, query: { q?: string; tag?: string }): Promise<Outcome>;
  /** For read-only surfaces: problems found showing this artifact (empty when it agrees). */
  verifyArtifact?(artifact: Artifact): Promise<string[]>;
  close?(): Promise<void>;
}

export type Step =
  | { kind: "create"; input: unknown }
  | { kind: "read"; of: number }
  | { kind: "search"; q?: string; tag?: string };

/**
 * One row of the table: setup steps run through the core driver (so every surface
 * starts from the same state), then the step under comparison runs through each surface.
 */
export interface Scenario {
  name: string;
  /** Created through core before the compared step; `read` refers to them by index. */
  setup?: unknown[];
  step: Step;
}
