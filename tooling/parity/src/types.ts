import type { Artifact, CairnErrorBody, CairnErrorCode, DropCategory, OperationInput, Principal } from "@cairn/core";

/** A user every driver acts as; each driver gets its own so duplicates never cross drivers. */
export interface Actor {
  name: string;
  token: string;
  principal: Principal;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: CairnErrorBody };

/** The policy fields a scenario may set for its actor before anything else runs. */
export type PolicyPatch = Omit<OperationInput<"policy_set">, "owner">;

/** One surface. Adding a surface is one object implementing this. */
export interface Driver {
  name: string;
  /** The provenance surface this driver's writes (and drops) must record, or null if it cannot write. */
  surface: "rest" | "mcp" | "cli" | "web" | null;
  /** null: this surface cannot express the input at all (say why in the driver). */
  createReceipt?(actor: Actor, input: unknown): Promise<Outcome | null>;
  read?(actor: Actor, id: string): Promise<Outcome | null>;
  search?(actor: Actor, query: { q?: string; tag?: string }): Promise<Outcome | null>;
  /** Setup only: the reference driver must offer it for scenarios that set a policy. */
  setPolicy?(actor: Actor, patch: PolicyPatch): Promise<Outcome>;
  /** For read-only surfaces: problems found showing this artifact (empty when it agrees). */
  verifyArtifact?(artifact: Artifact): Promise<string[]>;
  /** Called once the actor's step is done, so per-actor resources (a process, a client) end early. */
  release?(actor: Actor): Promise<void>;
  close?(): Promise<void>;
}

export type Step =
  /** `follows: N` sets the input's `follows` to the id of setup receipt N. */
  | { kind: "create"; input: unknown; follows?: number }
  /** `of: N` reads setup receipt N; `id` reads a fixed id. */
  | { kind: "read"; of: number }
  | { kind: "read"; id: string }
  | { kind: "search"; q?: string; tag?: string };

/**
 * One row of the table. For each driver's fresh actor, the policy and then the setup
 * receipts go through the reference driver (so every surface starts from the same
 * state); then the step under comparison runs through the surface itself.
 */
export interface Scenario {
  name: string;
  /**
   * What the reference must answer: a success, or this error code. Checked before any
   * comparison, so a row cannot pass by every surface agreeing on the wrong thing (a
   * policy that did not apply, a gate that did not fire).
   */
  expect: "ok" | CairnErrorCode;
  /** The drop category the refusal must carry. */
  drop?: DropCategory;
  /** More the reference's answer must show (redactions, a withheld title); returns what is wrong, or null. */
  check?(outcome: Outcome): string | null;
  /** Set for the actor (through the reference) before the setup receipts and the step. */
  policy?: PolicyPatch;
  /** Created through the reference before the compared step; steps refer to them by index. */
  setup?: unknown[];
  step: Step;
}
