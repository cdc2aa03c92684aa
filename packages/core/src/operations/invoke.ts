import type { ServiceContext } from "../context.js";
import type { CairnError } from "../errors.js";
import { requirePermission } from "../identity/permissions.js";
import type { Operation } from "./define.js";

/**
 * The one path into a verb, for every surface: the token's permission first (403 naming
 * it), then the operation validates its input and runs.
 */
export async function invokeOperation(op: Operation, ctx: ServiceContext, raw: unknown): Promise<unknown> {
  requirePermission(ctx.principal, op.permission);
  return op.invoke(ctx, raw);
}

/** Input a surface could not read: a caller without the permission gets 403, not a drop in its name. */
export async function refuseUnreadableInput(op: Operation, ctx: ServiceContext, error: CairnError): Promise<CairnError> {
  requirePermission(ctx.principal, op.permission);
  return op.refuseUnreadable ? op.refuseUnreadable(ctx, error) : error;
}
