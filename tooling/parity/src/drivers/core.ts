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
  const ctx = (actor: Actor) => cairn.context(actor.principal, "rest");
  return {
    name: "core",
    surface: "rest",
    createReceipt: (actor, input) => outcome(cairn.invoke("receipt_create", ctx(actor), input)),
    read: (actor, id) => outcome(cairn.invoke("artifact_read", ctx(actor), { id })),
    search: (actor, query) => outcome(cairn.invoke("artifact_search", ctx(actor), query)),
    setPolicy: (actor, patch) => outcome(cairn.invoke("policy_set", ctx(actor), patch)),
  };
}
