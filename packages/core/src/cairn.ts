import type { CairnConfig, Principal, ServiceContext, Surface } from "./context.js";
import { authenticate } from "./identity/tokens.js";
import { OPERATIONS, type OperationName, type OperationOutput } from "./operations/index.js";
import { openStore } from "./store/open.js";
import type { Store, StoreOptions } from "./store/port.js";

/** One running core: a store, its configuration, and the verbs bound to them. Adapters hold one of these. */
export interface Cairn {
  readonly store: Store;
  readonly config: CairnConfig;
  authenticate(bearer: string): Promise<Principal | null>;
  context(principal: Principal, surface: Surface): ServiceContext;
  invoke<N extends OperationName>(name: N, ctx: ServiceContext, raw: unknown): Promise<OperationOutput<N>>;
  close(): Promise<void>;
}

export function createCairn(store: Store, config: CairnConfig, now: () => Date = () => new Date()): Cairn {
  return {
    store,
    config,
    authenticate: (bearer) => authenticate(store, bearer),
    context: (principal, surface) => ({ store, config, principal, surface, now }),
    invoke: (name, ctx, raw) => OPERATIONS[name].invoke(ctx, raw) as never,
    close: () => store.close(),
  };
}

export async function openCairn(options: StoreOptions & CairnConfig): Promise<Cairn> {
  const store = await openStore(options);
  return createCairn(store, { publicUrl: options.publicUrl.replace(/\/+$/, "") });
}
