import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

describe.each(ADAPTER_DRIVERS)("cairn team and cairn run against cairn serve on %s", (driver) => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer(driver);
  });
  afterAll(async () => server?.stop());

  it("creates a team, invites a member who accepts and can then read a team receipt, and removes them", async () => {
    const sam = await cliUser(server, "sam");
    const dana = await cliUser(server, "dana");
    const team = `t-${sam.name}`;
    const created = await runCli(["team", "create", team, "--json"], { env: sam.env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ name: team, owner: `team:${team}`, members: [sam.name] });

    const added = await runCli(["team", "add", team, dana.name], { env: sam.env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`${dana.name} (invited; joins on accepting)`);

    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ owner: `team:${team}` }));
    expect(receipt.status).toBe(201);
    expect((await runCli(["read", receipt.json.id], { env: dana.env })).code).toBe(5);
    const waiting = await runCli(["team", "invitations"], { env: dana.env });
    expect(waiting.stdout).toContain(`team:${team}  invited by ${sam.name}  (cairn team accept ${team})`);
    const accepted = await runCli(["team", "accept", team, "--json"], { env: dana.env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.json.members).toEqual([dana.name, sam.name].sort());
    expect((await runCli(["read", receipt.json.id], { env: dana.env })).code).toBe(0);

    const left = await runCli(["team", "leave", team, "--block"], { env: dana.env });
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain(`Left team:${team}. It cannot invite you again`);
    expect((await runCli(["read", receipt.json.id], { env: dana.env })).code).toBe(5);
    await runCli(["team", "add", team, dana.name], { env: sam.env });
    expect((await runCli(["team", "invitations"], { env: dana.env })).stdout).toContain(`team:${team}  blocked`);
    expect((await runCli(["team", "unblock", team], { env: dana.env })).stdout).toContain(`Unblocked team:${team}.`);
    await runCli(["team", "add", team, dana.name], { env: sam.env });
    expect((await runCli(["team", "accept", team], { env: dana.env })).code).toBe(0);

    const removed = await runCli(["team", "remove", team, dana.name, "--json"], { env: sam.env });
    expect(removed.json.members).toEqual([sam.name]);
    expect((await runCli(["read", receipt.json.id], { env: dana.env })).code).toBe(5);
  });

  it("starts a run, appends spans from a file naming the receipt they produced, shows and closes it", async () => {
    const sam = await cliUser(server, "sam");
    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ learned: "from a run" }));
    const start = await runCli(["run", "start", "nightly-export"], { env: sam.env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    expect(runId).toMatch(/^run_/);

    const spans = JSON.stringify([
      { span_id: "a1", name: "export", start_time: "2026-11-29T02:00:00Z", end_time: "2026-11-29T02:05:00Z" },
      { span_id: "a2", parent_span_id: "a1", name: "write receipt", start_time: "2026-11-29T02:05:00Z", produced_artifact_id: receipt.json.id },
    ]);
    const appended = await runCli(["run", "spans", runId, "--from", "-"], { env: sam.env, input: spans });
    expect(appended.code, appended.stderr).toBe(0);
    expect(appended.stdout).toContain("Appended 2 spans");

    const shown = await runCli(["run", "show", runId], { env: sam.env });
    expect(shown.stdout).toContain(`→ ${receipt.json.id}`);
    const read = await runCli(["read", receipt.json.id, "--json"], { env: sam.env });
    expect(read.json.produced_by).toEqual([{ id: runId, name: "nightly-export" }]);

    const listed = await runCli(["runs"], { env: sam.env });
    expect(listed.code, listed.stderr).toBe(0);
    // State and counts are the row's, kept by span append: "ended · 2 spans" (its root span
    // ended) once append maintains them, "open · 0 spans" on a branch where it does not yet.
    expect(listed.stdout).toMatch(new RegExp(`${runId}  nightly-export  \\(user:${sam.name}\\)  (ended · 2 spans|open · 0 spans)`));
    const filtered = await runCli(["runs", "--error", "false", "--since", "2000-01-01", "--json"], { env: sam.env });
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(filtered.json.items.map((r: { id: string }) => r.id)).toEqual([runId]);
    expect((await runCli(["runs", "--error", "true"], { env: sam.env })).stdout).toBe("No runs.\n");
    const found = await runCli(["runs", "nightly", "--json"], { env: sam.env });
    expect(found.json.items.map((r: { id: string }) => r.id)).toEqual([runId]);
    expect((await runCli(["runs", "no-such-run"], { env: sam.env })).stdout).toBe("No runs.\n");

    expect((await runCli(["run", "close", runId, "--json"], { env: sam.env })).json.status).toBe("ended");
    const late = await runCli(["run", "spans", runId, "--from", "-", "--json"], { env: sam.env, input: spans.replaceAll("a1", "b1").replaceAll("a2", "b2") });
    expect(late.code).toBe(1);
    expect(late.json.error.issues[0].field).toBe("run_id");
  });

  it("cairn run delete: the owner deletes a run, its receipt stays; anyone else is told it does not exist", async () => {
    const sam = await cliUser(server, "sam");
    const eve = await cliUser(server, "eve");
    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({}));
    const runId = (await runCli(["run", "start", "stray"], { env: sam.env })).stdout.trim();
    const spans = JSON.stringify({ spans: [{ span_id: "a1", name: "write", start_time: "2026-11-29T02:00:00Z", produced_artifact_id: receipt.json.id }] });
    expect((await runCli(["run", "spans", runId, "--from", "-"], { env: sam.env, input: spans })).code).toBe(0);

    const refused = await runCli(["run", "delete", runId, "--json"], { env: eve.env });
    expect(refused.code).toBe(5);
    expect(refused.json.error.code).toBe("not_found");
    const deleted = await runCli(["run", "delete", runId], { env: sam.env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`Deleted ${runId} (the receipt it produced stays, no longer naming it).\n`);
    expect((await runCli(["run", "show", runId], { env: sam.env })).code).toBe(5);
    const read = await runCli(["read", receipt.json.id, "--json"], { env: sam.env });
    expect(read.json.produced_by).toEqual([]);
  });

  it("names the span's field when it points at an unknown artifact", async () => {
    const sam = await cliUser(server, "sam");
    const runId = (await runCli(["run", "start", "bad-links"], { env: sam.env })).stdout.trim();
    const spans = JSON.stringify({
      spans: [{ span_id: "x", name: "n", start_time: "2026-11-29T02:00:00Z", produced_artifact_id: "art_00000000000000000000000000" }],
    });
    const r = await runCli(["run", "spans", runId, "--from", "-"], { env: sam.env, input: spans });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("spans.0.produced_artifact_id");
  });
});
