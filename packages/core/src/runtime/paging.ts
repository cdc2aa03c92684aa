import type { ServiceContext } from "../context.js";
import type { OperationName, OperationOutput } from "./registry.js";

/** What walking pages needs of a core: its invoke (a Cairn is one). */
export interface Invoker {
  invoke<N extends OperationName>(name: N, ctx: ServiceContext, raw: unknown): Promise<OperationOutput<N>>;
}

/** Operations that answer one page of a list (`{items, next_cursor}`) and take a `cursor`. */
export type PagedOperationName = {
  [N in OperationName]: OperationOutput<N> extends { items: unknown[]; next_cursor: string | null } ? N : never;
}[OperationName];

/**
 * Walks a paged operation from `raw.cursor` (or the start) to its last page, one invoke
 * per page. A streaming surface awaits the first page before it commits to a response,
 * so invalid input is still an ordinary error; later pages follow the same cursor chain.
 */
export async function* pagesOf<N extends PagedOperationName>(
  cairn: Invoker,
  name: N,
  ctx: ServiceContext,
  raw: Record<string, unknown>,
): AsyncGenerator<OperationOutput<N>, void, undefined> {
  let input = raw;
  for (;;) {
    const page = await cairn.invoke(name, ctx, input);
    yield page;
    if (page.next_cursor === null) return;
    input = { ...raw, cursor: page.next_cursor };
  }
}
