import { type Cairn, CairnError, toCairnError } from "@cairn/core";
import type { Actor, Driver, Outcome } from "../types.js";

async function outcome(p: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    if (!(err instanceof CairnError)) throw err;
    return { ok: false, error: toCairnError(err).toBody() };
  }
}

/** Calls the core operations directly: the reference every surface is compared with. */
export function coreDriver(cairn: Cairn): Driver {
  // Authenticated per call, as every surface does: a principal carries its teams as of then.
  const ctx = async (actor: Actor) => cairn.context((await cairn.authenticate(actor.token)) ?? actor.principal, "rest");
  return {
    name: "core",
    surface: "rest",
    call: async (actor, operation, input) => outcome(cairn.invoke(operation, await ctx(actor), input)),
  };
}
