import type { ServiceContext } from "../context.js";
import { CairnError } from "../errors.js";
import { type Operation, UnreadableInput } from "./define.js";

/**
 * The one path into a verb, for every surface. The operation checks the caller and the
 * permission, validates its input and runs (define.ts).
 */
export async function invokeOperation(op: Operation, ctx: ServiceContext, raw: unknown): Promise<unknown> {
  return op.invoke(ctx, raw);
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
