import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProgram } from "./run-program.js";

const UNIT = join(import.meta.dirname, "../../../../integrations/systemd/cairn.service");
const ANALYZE = "/usr/bin/systemd-analyze";

/** systemd-analyze reports a bad directive on stderr and still exits 0: an empty stderr is the pass. */
async function verify(unitPath: string): Promise<{ code: number | null; stderr: string }> {
  const { code, stderr } = await runProgram(ANALYZE, ["verify", unitPath], { timeoutMs: 30_000 });
  return { code, stderr: stderr.trim() };
}

/** SPEC §39: the shipped unit is valid and hardened, as systemd itself reads it. */
describe.skipIf(!existsSync(ANALYZE))("integrations/systemd/cairn.service (needs Debian's systemd package for systemd-analyze)", () => {
  it("passes systemd-analyze verify with nothing to report, and a misspelt directive would not", async () => {
    expect(await verify(UNIT)).toEqual({ code: 0, stderr: "" });
    const dir = await mkdtemp(join(tmpdir(), "cairn-unit-"));
    try {
      const bad = join(dir, "cairn.service");
      await writeFile(bad, (await readFile(UNIT, "utf8")).replace("ProtectSystem=strict", "ProtectSystem=strcit"));
      expect((await verify(bad)).stderr).toMatch(/protect system value/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("is hardened: systemd's own exposure score is low, with the sandbox directives in place", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-unit-"));
    try {
      await copyFile(UNIT, join(dir, "cairn.service"));
      const { code, stdout } = await runProgram(ANALYZE, ["security", "--offline=yes", join(dir, "cairn.service")], { timeoutMs: 30_000 });
      expect(code).toBe(0);
      const score = Number(stdout.match(/Overall exposure level for cairn\.service: ([\d.]+)/)?.[1]);
      expect(score).toBeLessThanOrEqual(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const unit = await readFile(UNIT, "utf8");
    for (const line of ["DynamicUser=yes", "StateDirectory=cairn", "ProtectSystem=strict", "ProtectHome=yes", "NoNewPrivileges=yes", "PrivateTmp=yes"]) {
      expect(unit).toContain(`\n${line}\n`);
    }
    expect(unit).toMatch(/\nRestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX\n/);
    // The unit starts the CLI this repository builds, at the same path inside the install.
    expect(unit).toMatch(/ExecStart=\/usr\/bin\/node \/opt\/cairn\/apps\/cli\/dist\/bin\.cjs serve/);
  });
});
