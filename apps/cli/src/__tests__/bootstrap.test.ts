import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { openStore } from "@cairn/core";
import { resolveSettings } from "@cairn/core/local";
import { DRIVERS } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { startServer } from "../server.js";
import { homeFor } from "./serve-process.js";

describe.each(DRIVERS)("first start on %s", (driver) => {
  it("a credentials file that cannot be written creates no admin; the next start creates it and writes the file", async () => {
    const { env, home, dispose } = await homeFor(driver);
    try {
      const settings = resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1" });
      await mkdir(join(home, "credentials")); // a directory where the file must go: the write fails
      const failed = await startServer(settings, { info: () => {} }, "test").catch((e: Error) => e);
      expect((failed as Error).message).toMatch(/could not write .*credentials .*no admin was created/);

      const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
      const [users] = await store.query<{ n: number }>("select count(*)::int as n from users");
      await store.close();
      expect(users?.n).toBe(0);

      await rm(join(home, "credentials"), { recursive: true });
      const server = await startServer(settings, { info: () => {} }, "test");
      try {
        const { token } = JSON.parse(await readFile(join(home, "credentials"), "utf8")) as { token: string };
        expect((await server.cairn.authenticate(token))?.user).toMatchObject({ name: "admin", is_admin: true });
      } finally {
        await server.close();
      }
    } finally {
      await dispose();
    }
  });
});
