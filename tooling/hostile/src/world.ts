import type { Cairn } from "@cairn/core";
import { createTestWorld, type Driver, minimalReceipt, openTestStore, type TestUser } from "@cairn/core/testing";
import { createMcpHttpHandler } from "@cairn/mcp";
import { createRestApp } from "@cairn/rest";
import type { Fixture } from "./bodies.js";
import type { Fetcher } from "./targets.js";

export interface HostileWorld {
  cairn: Cairn;
  /** The in-process REST app with MCP mounted at /mcp, as `cairn serve` wires it. */
  fetch: Fetcher;
  /** A new caller with things to point at: a run, a closable run, an artifact, a team with another member. */
  caller(): Promise<{ user: TestUser; fixture: Fixture }>;
  close(): Promise<void>;
}

export async function openHostileWorld(driver: Driver): Promise<HostileWorld> {
  const store = await openTestStore(driver);
  const world = await createTestWorld(store);
  const app = createRestApp(world.cairn, { mounts: { "/mcp": createMcpHttpHandler(world.cairn, { version: "hostile" }) } });
  const other = await world.user("other");
  return {
    cairn: world.cairn,
    fetch: (path, init) => Promise.resolve(app.request(path, init)),
    async caller() {
      const user = await world.user("hostile");
      const ctx = user.ctx();
      const run = await world.cairn.invoke("run_create", ctx, { name: "target run" });
      const closable = await world.cairn.invoke("run_create", ctx, { name: "closable run" });
      const artifact = await world.cairn.invoke("receipt_create", ctx, minimalReceipt({ learned: `fixture ${user.name}` }));
      const team = (await world.team([user, other], "hostile")).slice("team:".length);
      return { user, fixture: { runId: run.id, closableRunId: closable.id, artifactId: artifact.id, team, otherUser: other.name } };
    },
    close: () => store.close(),
  };
}
