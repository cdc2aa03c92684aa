import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCredentials, replaceCredentials, writeCredentials } from "../credentials.js";

// SPEC §31 and §24: the credentials file's temporary file and an unreadable file it replaces.
describe("the credentials file under hostile or broken conditions", () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("never writes through a symlink planted at the temporary file's path", async () => {
    dir = await mkdtemp(join(tmpdir(), "cairn-creds-"));
    const path = join(dir, "credentials");
    const victim = join(dir, "victim");
    await writeFile(victim, "precious\n", { mode: 0o644 });
    await symlink(victim, `${path}.${process.pid}.tmp`);
    await writeCredentials(path, { url: "http://127.0.0.1:7373", token: "cairn_x" });
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
    expect(await readCredentials(path)).toEqual({ url: "http://127.0.0.1:7373", token: "cairn_x" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("keeps an unreadable credentials file's bytes as credentials.previous before replacing it", async () => {
    dir = await mkdtemp(join(tmpdir(), "cairn-creds-"));
    const path = join(dir, "credentials");
    await writeFile(path, "cairn_only_copy_of_a_token\n", { mode: 0o600 });
    expect(await replaceCredentials(path, { url: "https://a.example", token: "cairn_a" })).toBe(`${path}.previous`);
    expect(await readFile(`${path}.previous`, "utf8")).toBe("cairn_only_copy_of_a_token\n");
    expect((await stat(`${path}.previous`)).mode & 0o777).toBe(0o600);
    expect((await readCredentials(path))?.token).toBe("cairn_a");
    // A second broken file never overwrites the first backup.
    await writeFile(path, "{ not json", { mode: 0o600 });
    expect(await replaceCredentials(path, { url: "https://b.example", token: "cairn_b" })).toBe(`${path}.previous.2`);
    expect(await readFile(`${path}.previous`, "utf8")).toBe("cairn_only_copy_of_a_token\n");
    expect(await readFile(`${path}.previous.2`, "utf8")).toBe("{ not json");
  });

  it.runIf(process.getuid?.() !== 0)("keeps a file it may not read (mode 000) by a link to it", async () => {
    dir = await mkdtemp(join(tmpdir(), "cairn-creds-"));
    const path = join(dir, "credentials");
    await writeFile(path, JSON.stringify({ url: "http://x", token: "cairn_hidden" }), { mode: 0o600 });
    await chmod(path, 0o000);
    expect(await replaceCredentials(path, { url: "https://a.example", token: "cairn_a" })).toBe(`${path}.previous`);
    await chmod(`${path}.previous`, 0o600);
    expect((await readCredentials(`${path}.previous`))?.token).toBe("cairn_hidden");
  });
});
