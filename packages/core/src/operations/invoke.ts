import type { ServiceContext } from "../context.js";
import { CairnError } from "../errors.js";
import { type Operation, UnreadableInput } from "./define.js";
import { nestingError } from "./nesting.js";

/**
 * The one path into a verb, for every surface. The operation checks the caller and the
 * permission, validates its input and runs (define.ts). Input nested past LIMITS.depth is
 * handed over as unreadable, before anything walks it: every validator, scanner and
 * serializer after this point may recurse.
 */
export async function invokeOperation(op: Operation, ctx: ServiceContext, raw: unknown): Promise<unknown> {
  const tooDeep = raw instanceof UnreadableInput ? undefined : nestingError(raw);
  return op.invoke(ctx, tooDeep ? new UnreadableInput(tooDeep) : raw);
}

/**
 * Input a surface could not read: handed to the operation like any other input. A caller
 * that may not call it gets that answer (401, 403: thrown, not a drop in its name); else
 * the refusal of the input, with the same code, is returned for the surface to send —
 * receipt_create's carries its drop receipt.
 */
export async function refuseUnreadableInput(op: Operation, ctx: ServiceContext, error: CairnError): Promise<CairnError> {
  try {
    await op.invoke(ctx, new UnreadableInput(error));
  } catch (err) {
    if (err instanceof CairnError && err.code === error.code) return err;
    throw err;
  }
  throw new Error("an operation accepted unreadable input");
}
