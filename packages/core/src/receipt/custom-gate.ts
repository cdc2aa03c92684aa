import type { Surface, TokenKind } from "../surfaces.js";
import type { ReceiptMetadata } from "./schemas.js";

/** What a custom gate sees: the receipt after the built-in gates and redaction, never a secret. */
export interface GateReceipt {
  owner: string;
  title: string;
  metadata: ReceiptMetadata;
  tags: string[];
  details?: string;
  model?: string;
}

/**
 * What a custom gate knows about the call: who submitted, through which surface, when,
 * and the request id for its own logs. Deliberately not the service context: a gate
 * gets no store, no configuration and no raw input.
 */
export interface GateContext {
  /** The submitting user and the token it used. */
  actor: { user: string; token: string; kind: TokenKind };
  surface: Surface;
  now: Date;
  requestId: string;
}

/**
 * A custom gate's refusal. `category` is one of the drop categories when the gate knows
 * which it is; anything else (or nothing) is classified `unknown` and still counted.
 */
export interface GateRefusal {
  reason: string;
  category?: string;
  /** Dotted paths of the fields at fault; default `(input)`. */
  fields?: string[];
}

/**
 * An operator's own gate, registered with `createCairn`/`openCairn` (`gates: [...]`). It
 * runs after the built-in content gates (secrets, policy) and before the duplicate check.
 */
export interface ReceiptGate {
  /** Kept on the drop receipt; name the rule, not the content. */
  name: string;
  check(receipt: GateReceipt, ctx: GateContext): GateRefusal | null | Promise<GateRefusal | null>;
}
