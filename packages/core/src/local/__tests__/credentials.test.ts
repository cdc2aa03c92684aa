import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCredentials, replaceCredentials, writeCredentials } from "../credentials.js";

describe("replacing the credentials file", () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps every token it replaces: a second replacement never overwrites the first backup", async () => {
    dir = await mkdtemp(join(tmpdir(), "cairn-creds-"));
    const path = join(dir, "credentials");
    await writeCredentials(path, { url: "http://127.0.0.1:7373", token: "cairn_admin" });
    expect(await replaceCredentials(path, { url: "https://a.example", token: "cairn_a" })).toBe(`${path}.previous`);
    expect(await replaceCredentials(path, { url: "https://b.example", token: "cairn_b" })).toBe(`${path}.previous.2`);
    expect((await readCredentials(`${path}.previous`))?.token).toBe("cairn_admin");
    expect((await readCredentials(`${path}.previous.2`))?.token).toBe("cairn_a");
    expect((await readCredentials(path))?.token).toBe("cairn_b");
    expect((await stat(`${path}.previous`)).mode & 0o777).toBe(0o600);
  });

  it("keeps nothing when the file is absent or holds the same token", async () => {
    dir = await mkdtemp(join(tmpdir(), "cairn-creds-"));
    const path = join(dir, "credentials");
    expect(await replaceCredentials(path, { url: "http://127.0.0.1:7373", token: "cairn_x" })).toBeNull();
    expect(await replaceCredentials(path, { url: "http://127.0.0.1:7400", token: "cairn_x" })).toBeNull();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ url: "http://127.0.0.1:7400", token: "cairn_x" });
  });
});
