import { mkdtempSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "@cairn/cli";
import { resolveSettings } from "@cairn/core/local";
import { createTestDatabase, freshPgliteDir, type Driver as StoreDriver } from "@cairn/core/testing";
import type { Actor } from "./types.js";

export interface ParityServer {
  server: RunningServer;
  home: string;
  adminToken: string;
  newActor(): Promise<Actor>;
  close(): Promise<void>;
}

let counter = 0;

/** One real `cairn serve` (in-process, free port) on the given store, shared by every driver. */
export async function startParityServer(store: StoreDriver): Promise<ParityServer> {
  const home = mkdtempSync(join(tmpdir(), "cairn-parity-"));
  const db = store === "pg" ? await createTestDatabase("pg") : null;
  if (!db) renameSync(await freshPgliteDir(), join(home, "pgdata"));
  const settings = resolveSettings({
    CAIRN_HOME: home,
    PORT: "0",
    HOST: "127.0.0.1",
    ...(db?.databaseUrl && { DATABASE_URL: db.databaseUrl }),
  });
  const server = await startServer(settings, { info: () => {} }, "parity");
  const adminToken = (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;
  return {
    server,
    home,
    adminToken,
    async newActor() {
      const name = `parity-${process.pid}-${++counter}`;
      const res = await fetch(`${server.url}/v1/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      if (res.status !== 201) throw new Error(`could not create user: ${res.status} ${await res.text()}`);
      const token = ((await res.json()) as { token: { token: string } }).token.token;
      const principal = await server.cairn.authenticate(token);
      if (!principal) throw new Error("new user's token did not authenticate");
      return { name, token, principal };
    },
    async close() {
      await server.close();
      await db?.dispose();
    },
  };
}
