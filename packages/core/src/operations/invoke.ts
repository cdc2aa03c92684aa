import type { ServiceContext } from "../context.js";
import type { CairnError } from "../errors.js";
import { checkedContext } from "../identity/principal-cache.js";
import { requirePermission } from "../identity/permissions.js";
import type { Operation } from "./define.js";

/**
 * The one path into a verb, for every surface: a cached caller re-read (401 if its token
 * is gone) unless the verb's write re-checks it, the token's permission (403 naming it),
 * then the operation validates its input and runs.
 */
export async function invokeOperation(op: Operation, ctx: ServiceContext, raw: unknown): Promise<unknown> {
  const checked = op.checksCallerInWrite ? ctx : await checkedContext(ctx);
  requirePermission(checked.principal, op.permission);
  return op.invoke(checked, raw);
}

/** Input a surface could not read: a caller without the permission gets 403, not a drop in its name. */
export async function refuseUnreadableInput(op: Operation, ctx: ServiceContext, error: CairnError): Promise<CairnError> {
  const checked = await checkedContext(ctx);
  requirePermission(checked.principal, op.permission);
  return op.refuseUnreadable ? op.refuseUnreadable(checked, error) : error;
}
