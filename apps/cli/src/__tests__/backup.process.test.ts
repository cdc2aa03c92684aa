import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestHome, DRIVERS, minimalReceipt, runNode } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { adminTokenIn } from "./mcp-harness.js";
import { CLI_BIN, spawnServe } from "./serve-process.js";

type Written = { id: string; checksum: string };

/** One receipt; undefined when it was not acknowledged (a refusal, or a connection the server dropped while it copied the store). */
async function write(url: string, token: string, i: number): Promise<Written | undefined> {
  const res = await fetch(`${url}/v1/receipts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(minimalReceipt({ changed: `Backup writer receipt ${i} ${Math.random()}` })),
  }).catch(() => undefined);
  if (res?.status !== 201) return undefined;
  const body = (await res.json()) as Written;
  return { id: body.id, checksum: body.checksum };
}

const cli = (args: string[], env: Record<string, string>) => runNode([CLI_BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, timeoutMs: 120_000 });

/**
 * SPEC §39: `cairn backup` while the server keeps taking writes, `cairn restore` into an
 * empty home or database, and a server on the restored data: every receipt acknowledged
 * before the backup began is there with its checksum, and the keys are the same, so an
 * export the restored server signs verifies against the keys the first server published.
 */
describe.each(DRIVERS.filter((d) => d !== "pgbouncer"))("backup and restore on %s", (driver) => {
  it("keeps every acknowledged receipt and the signing keys, under writes, and refuses a non-empty target", async () => {
    const source = await createTestHome(driver);
    const target = await createTestHome(driver);
    const scratch = await mkdtemp(join(tmpdir(), "cairn-backup-"));
    // The embedded target is a fresh CAIRN_HOME with nothing in it.
    const targetEnv = driver === "pglite" ? { CAIRN_HOME: join(scratch, "restored-home") } : target.env;
    const file = join(scratch, "cairn.backup");
    const first = await spawnServe(source.env);
    let second: Awaited<ReturnType<typeof spawnServe>> | undefined;
    try {
      const token = adminTokenIn(source.home);
      const keys = await (await fetch(`${first.url}/v1/keys`)).json();
      const acknowledged: Written[] = [];
      for (let i = 0; i < 20; i++) {
        const w = await write(first.url, token, i);
        if (w) acknowledged.push(w);
      }
      expect(acknowledged).toHaveLength(20);
      // Writers keep going through the backup; what they get acknowledged meanwhile may or may not be in it.
      let writing = true;
      const during: Written[] = [];
      const writers = [0, 1].map(async (w) => {
        for (let i = 0; writing; i++) {
          const r = await write(first.url, token, 1000 * (w + 1) + i);
          if (r) during.push(r);
        }
      });
      const backedUp = await cli(["backup", "--out", file], { ...source.env, CAIRN_URL: first.url });
      writing = false;
      await Promise.all(writers);
      expect(backedUp.code, backedUp.stderr).toBe(0);
      expect(backedUp.stdout).toContain(`to ${file}`);
      expect(during.length).toBeGreaterThan(0);
      await first.stop();

      const restored = await cli(["restore", file], targetEnv);
      expect(restored.code, restored.stderr).toBe(0);
      const again = await cli(["restore", file], targetEnv);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/not empty.*restore fills an empty (CAIRN_HOME|database) only/);

      second = await spawnServe(targetEnv);
      for (const w of acknowledged) {
        const res = await fetch(`${second.url}/v1/artifacts/${w.id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        expect(((await res.json()) as Written).checksum).toBe(w.checksum);
      }
      expect(await (await fetch(`${second.url}/v1/keys`)).json()).toEqual(keys);
      const keysFile = join(scratch, "keys.json");
      await writeFile(keysFile, JSON.stringify(keys));
      const exported = await cli(["export", "--format", "in-toto"], { CAIRN_URL: second.url, CAIRN_TOKEN: token, CAIRN_HOME: scratch });
      expect(exported.code, exported.stderr).toBe(0);
      const exportFile = join(scratch, "export.intoto.jsonl");
      await writeFile(exportFile, exported.stdout);
      expect(exported.stdout.split("\n").filter((l) => l.length > 0).length).toBeGreaterThanOrEqual(acknowledged.length);
      const verified = await cli(["verify", exportFile, "--keys", keysFile], { CAIRN_HOME: scratch });
      expect(verified.code, `${verified.stdout}\n${verified.stderr}`).toBe(0);
    } finally {
      await first.stop();
      await second?.stop();
      await source.dispose();
      await target.dispose();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("cairn backup and restore refuse clearly", () => {
  it("says what to install when pg_dump is missing, and refuses a file that is no backup", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "cairn-backup-"));
    try {
      const noTools = await cli(["backup", "--out", join(scratch, "x")], {
        PATH: scratch,
        CAIRN_HOME: scratch,
        DATABASE_URL: "postgres://127.0.0.1:5432/none",
      });
      expect(noTools.code).toBe(1);
      expect(noTools.stderr).toContain("pg_dump is not installed: install PostgreSQL's client tools");
      const junk = join(scratch, "junk");
      await writeFile(junk, "not a backup");
      const refused = await cli(["restore", junk], { CAIRN_HOME: join(scratch, "home") });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is not a backup cairn backup wrote");
      expect((await cli(["backup"], { CAIRN_HOME: scratch })).code).toBe(2);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
