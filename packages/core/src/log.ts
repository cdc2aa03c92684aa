import type { ServiceContext } from "./context.js";

/**
 * A line about a failure core swallowed, tagged with the request it happened in so an
 * operator can match it to the `X-Request-Id` a client saw. Never carries submitted values.
 */
export function logFailure(ctx: Pick<ServiceContext, "log" | "requestId">, line: string): void {
  (ctx.log ?? console.error)(`cairn: ${line} (request ${ctx.requestId})`);
}
