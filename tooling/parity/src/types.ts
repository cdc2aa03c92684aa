import type { Artifact, CairnErrorBody, CairnErrorCode, DropCategory, OperationInput, OperationName, Principal } from "@cairn/core";

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
  /**
   * Calls one operation as the actor, generically from the surface's own tables. null:
   * this surface does not offer the operation, or cannot express this input (a receipt
   * that is not an object as MCP tool arguments).
   */
  call?(actor: Actor, operation: OperationName, input: unknown): Promise<Outcome | null>;
  /** For read-only surfaces: problems found showing this artifact (empty when it agrees). */
  verifyArtifact?(artifact: Artifact): Promise<string[]>;
  /** Called once the actor's step is done, so per-actor resources (a process, a client) end early. */
  release?(actor: Actor): Promise<void>;
  close?(): Promise<void>;
}

/**
 * One call. In `input`, a string `"$N.path"` is replaced by the N-th setup step's answer at
 * that dotted path, and `$actor` / `$other` inside any string by the acting user's name and
 * the second user's.
 */
export interface Step {
  operation: OperationName;
  input: unknown;
  /** A setup step that must be refused (to leave a drop); its answer is the error body. */
  refused?: true;
  /** A setup step taken by the second user (`other` rows), e.g. their team inviting the actor. */
  as?: "other";
}

/**
 * One row of the table. For each driver's fresh actor, the policy and then the setup
 * steps go through the reference driver (so every surface starts from the same state);
 * then the step under comparison runs through the surface itself.
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
  /** Set for the actor (through the reference) before the setup steps and the step. */
  policy?: PolicyPatch;
  /** A second fresh user per driver, `$other` in inputs (for team membership). */
  other?: true;
  /** Run through the reference before the compared step. */
  setup?: Step[];
  step: Step;
}
