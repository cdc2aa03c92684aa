import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { CLI_BIN, homeFor, spawnServe } from "./serve-process.js";

async function post(url: string, token: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

describe.each(DRIVERS)("cairn serve on %s", (driver) => {
  it("bootstraps the admin into a 0600 credentials file, never logs the token, and survives a restart", async () => {
    const { env, home, dispose } = await homeFor(driver);
    try {
      const first = await spawnServe(env);
      const credsPath = join(home, "credentials");
      const creds = JSON.parse(readFileSync(credsPath, "utf8"));
      expect(statSync(credsPath).mode & 0o777).toBe(0o600);
      expect(creds.url).toBe(first.url);
      expect(first.output()).toContain(credsPath);
      expect(first.output()).not.toContain(creds.token);
      // What a person sees at start is Cairn's own lines, not a library's notice about a mode it chose.
      expect(first.output()).not.toContain("responseMode");

      const created = await post(`${first.url}/v1/receipts`, creds.token, minimalReceipt());
      expect(created.status).toBe(201);
      expect(await first.stop("SIGTERM")).toBe(0);
      expect(first.output()).toContain("Stopped.");
      expect(existsSync(join(home, "pgdata.pid"))).toBe(false);

      const second = await spawnServe(env);
      const read = await fetch(`${second.url}/v1/artifacts/${created.json.id}`, {
        headers: { authorization: `Bearer ${creds.token}` },
      });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { checksum: string }).checksum).toBe(created.json.checksum);
      expect(second.output()).not.toContain("Created the admin user");
      expect(await second.stop("SIGINT")).toBe(0);
    } finally {
      await dispose();
    }
  });
});

describe("cairn serve on the embedded store", () => {
  it("refuses to open a data directory another live server holds", async () => {
    const { env } = await homeFor("pglite");
    const first = await spawnServe(env);
    try {
      await expect(spawnServe(env)).rejects.toThrow(/another cairn serve \(pid \d+\)/);
    } finally {
      await first.stop();
    }
  });
});

describe("cairn serve interrupted while starting", () => {
  it("waits for the store to open, then stops cleanly; the next start finds an intact store", async () => {
    const { env, home, dispose } = await homeFor("pglite");
    try {
      const child = spawn(process.execPath, [CLI_BIN, "serve"], { env: { ...process.env, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      // Signal as soon as the server says it is starting: the store is still opening.
      await new Promise<void>((resolve) => {
        const check = () => (out.includes("Starting Cairn") ? resolve() : setTimeout(check, 5));
        check();
      });
      expect(out).not.toContain("listening on");
      child.kill("SIGTERM");
      expect(await exited, out).toBe(0);
      expect(out).toContain("Stopped.");
      expect(existsSync(join(home, "pgdata.pid"))).toBe(false);
      const again = await spawnServe(env);
      expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
      expect(await again.stop()).toBe(0);
    } finally {
      await dispose();
    }
  });
});
