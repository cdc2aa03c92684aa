import type { ServiceContext } from "../context.js";
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
  check(receipt: GateReceipt, ctx: ServiceContext): GateRefusal | null | Promise<GateRefusal | null>;
}
