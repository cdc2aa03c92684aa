import { DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

/** SPEC §34 from a shell against `cairn serve`: an assign that cannot work says to move it first; `cairn transfer` does. */
describe.each(DRIVERS)("cairn transfer against cairn serve on %s", (driver) => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer(driver);
  });
  afterAll(async () => server?.stop());

  it("moves a personal receipt to the team, after which a teammate can be assigned it", async () => {
    const sam = await cliUser(server, "sam");
    const kim = await cliUser(server, "kim");
    const team = `t-${sam.name}`;
    expect((await runCli(["team", "create", team], { env: sam.env })).code).toBe(0);
    await runCli(["team", "add", team, kim.name], { env: sam.env });
    expect((await runCli(["team", "accept", team], { env: kim.env })).code).toBe(0);
    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ human_action: "Approve the new budget" }));
    expect(receipt.status).toBe(201);
    const id = receipt.json.id as string;

    const refused = await runCli(["assign", id, kim.name], { env: sam.env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`move it to team:${team} first (cairn transfer ${id} team:${team})`);
    expect((await runCli(["read", id], { env: kim.env })).code).toBe(5);

    const moved = await runCli(["transfer", id, `team:${team}`], { env: sam.env });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`Moved ${id} to team:${team}:`);
    expect((await runCli(["read", id, "--json"], { env: kim.env })).json.owner).toBe(`team:${team}`);
    const assigned = await runCli(["assign", id, kim.name], { env: sam.env });
    expect(assigned.code, assigned.stderr).toBe(0);

    const again = await runCli(["transfer", id, `team:${team}`, "--json"], { env: sam.env });
    expect(again.code).toBe(1); // rejected
    expect(again.json.error.issues[0]).toEqual({ field: "owner", reason: `is already the owner of ${id}` });
  });
});
