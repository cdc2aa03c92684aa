import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

describe.each(ADAPTER_DRIVERS)("cairn policy, drops, doctor and status against cairn serve on %s", (driver) => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer(driver);
  });
  afterAll(async () => server?.stop());

  it("a vetoing policy shows in drops, doctor (exit 1) and status; turning it off clears doctor's Policy finding", async () => {
    const sam = await cliUser(server, "sam");
    expect((await runCli(["doctor"], { env: sam.env })).code).toBe(0);

    const set = await runCli(["policy", "set", "require_evidence", "true", "--json"], { env: sam.env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toMatchObject({ owner: `user:${sam.name}`, require_evidence: true, secrets: "redact" });

    const vetoed = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt());
    expect(vetoed.status).toBe(422);
    expect(vetoed.json.error.drop.category).toBe("policy-vetoed");

    const drops = await runCli(["drops"], { env: sam.env });
    expect(drops.stdout).toContain("policy-vetoed");
    const doctor = await runCli(["doctor"], { env: sam.env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/WARN {2}Policy:/);
    const doctorJson = await runCli(["doctor", "--json"], { env: sam.env });
    expect(doctorJson.code).toBe(1);
    expect(doctorJson.json.checks.map((c: { name: string }) => c.name)).toContain("Policy");
    const status = await runCli(["status"], { env: sam.env });
    expect(status.stdout).toContain("Drops (7d): 1 policy-vetoed");

    await runCli(["policy", "set", "require_evidence", "false"], { env: sam.env });
    const after = await runCli(["doctor", "--json"], { env: sam.env });
    expect(after.json.checks.map((c: { name: string }) => c.name)).not.toContain("Policy");
  });

  it("policy get prints the whole policy; a bad key or value is a usage error (exit 2)", async () => {
    const sam = await cliUser(server, "sam");
    const got = await runCli(["policy", "get"], { env: sam.env });
    expect(got.stdout).toContain("default_ttl_days");
    expect((await runCli(["policy", "set", "colour", "blue"], { env: sam.env })).code).toBe(2);
    expect((await runCli(["policy", "set", "require_evidence", "maybe"], { env: sam.env })).code).toBe(2);
    const rejected = await runCli(["policy", "set", "default_ttl_days", "0"], { env: sam.env });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain("default_ttl_days");
  });

  it("--dry-run redacts a secret exactly as the server stores it", async () => {
    const sam = await cliUser(server, "sam");
    const secret = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
    const input = JSON.stringify(minimalReceipt({ before: `The token ${secret} was in the config.` }));
    const dry = await runCli(["receipt", "--dry-run", "--from", "-", "--json"], { env: sam.env, input });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json.body).not.toContain(secret);
    expect(dry.json.redactions.length).toBeGreaterThan(0);
    const stored = await runCli(["receipt", "--from", "-", "--json"], { env: sam.env, input });
    expect(stored.json.checksum).toBe(dry.json.checksum);
    expect(stored.json.redactions).toEqual(dry.json.redactions);
  });
});
