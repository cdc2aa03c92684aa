import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../exit-codes.js";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";

const ASKS = "Approve the retry budget in the finance channel.";

describe("cairn inbox, ack and outcomes against cairn serve", () => {
  let server: CliServer;
  beforeAll(async () => {
    server = await startCliServer("pglite");
  });
  afterAll(async () => server?.stop());

  it("lists an open action, acknowledges it with a note, and shows it under --all; an agent token is refused", async () => {
    const sam = await cliUser(server, "sam");
    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ human_action: ASKS }));
    const id = receipt.json.id as string;

    const inbox = await runCli(["inbox"], { env: sam.env });
    expect(inbox.code, inbox.stderr).toBe(0);
    expect(inbox.stdout).toContain(`${id}  open`);
    expect(inbox.stdout).toContain(`You need to do: ${ASKS}`);
    const json = await runCli(["inbox", "--json"], { env: sam.env });
    // The REST answer as it is (only the age moves between the two calls).
    const rest = (await server.rest("GET", "/v1/inbox", sam.token)).json;
    const ageless = (page: { items: Array<{ age: unknown }> }) => page.items.map(({ age: _age, ...item }) => item);
    expect(ageless(json.json)).toEqual(ageless(rest));

    const agent = await runCli(["token", "create", "claude", "--kind", "agent"], { env: sam.env });
    expect(agent.code, agent.stderr).toBe(0);
    const agentEnv = { ...sam.env, CAIRN_TOKEN: agent.stdout.trim() };
    const denied = await runCli(["ack", id, "--json"], { env: agentEnv });
    expect(denied.code).toBe(EXIT.auth);
    expect(denied.json.error.code).toBe("forbidden");

    const acked = await runCli(["ack", id, "--note", "Approved in #finance"], { env: sam.env });
    expect(acked.code, acked.stderr).toBe(0);
    expect(acked.stdout).toMatch(new RegExp(`${sam.name} acknowledged \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC \\(initial\\)`));
    expect(acked.stdout).toContain("Approved in #finance");

    expect((await runCli(["inbox"], { env: sam.env })).stdout).toContain("Nothing waits on anyone.");
    const all = await runCli(["inbox", "--all", "--json"], { env: sam.env });
    expect(all.json.items.map((i: { id: string; state: string }) => [i.id, i.state])).toEqual([[id, "acknowledged"]]);
    const status = await runCli(["status"], { env: sam.env });
    expect(status.stdout).toContain("Inbox: nothing open");

    // An open ask comes first and is marked with the options to answer and its deadline (SPEC §32).
    const ask = {
      options: [
        { id: "approve", label: "Approve" },
        { id: "reject", label: "Reject" },
      ],
      answer_by: "2099-12-09T10:00:00Z",
    };
    const asking = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ human_action: "Approve the migration", ask, learned: "asks" }));
    const later = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ human_action: ASKS, learned: "asks later" }));
    const marked = await runCli(["inbox"], { env: sam.env });
    expect(marked.code, marked.stderr).toBe(0);
    const lines = marked.stdout.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${asking.json.id}  open `));
    expect(lines.slice(1, 3)).toEqual(["  You need to do: Approve the migration", "  ? approve | reject — answer by 2099-12-09 10:00 UTC"]);
    expect(lines[3]).toMatch(new RegExp(`^${later.json.id}  open `));
    expect(lines[4]).toBe(`  You need to do: ${ASKS}`);
    expect(lines[5]).toBe("");
  });

  it("cairn ack on a receipt asking nothing names human_action; cairn outcomes lists what is overdue", async () => {
    const sam = await cliUser(server, "sam");
    const nothing = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ learned: "asks nothing" }));
    const refused = await runCli(["ack", nothing.json.id, "--json"], { env: sam.env });
    expect(refused.code).toBe(EXIT.rejected);
    expect(refused.json.error.issues[0].field).toBe("human_action");

    const past = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ outcome: { status: "pending", measure_at: "2020-01-01" } }));
    const outcomes = await runCli(["outcomes"], { env: sam.env });
    expect(outcomes.code, outcomes.stderr).toBe(0);
    // Instants read as people write them (SPEC §24), never as 2020-01-01T00:00:00.000Z.
    expect(outcomes.stdout).toContain(`${past.json.id}  overdue  due 2020-01-01 00:00 UTC`);
    const json = await runCli(["outcomes", "--json"], { env: sam.env });
    expect(json.json.items.map((o: { id: string }) => o.id)).toEqual([past.json.id]);
    const doctor = await runCli(["doctor"], { env: sam.env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("WARN  Inbox: 0 open actions; 1 outcome overdue.");
  });

  it("cairn assign names who must act, --none clears it; an agent token is refused; inbox --assignee me and status say what is yours", async () => {
    const sam = await cliUser(server, "sam");
    const receipt = await server.rest("POST", "/v1/receipts", sam.token, minimalReceipt({ human_action: ASKS, learned: "to assign" }));
    const id = receipt.json.id as string;
    expect((await runCli(["inbox", "--assignee", "me", "--json"], { env: sam.env })).json.items).toEqual([]);

    const assigned = await runCli(["assign", id, sam.name], { env: sam.env });
    expect(assigned.code, assigned.stderr).toBe(0);
    expect(assigned.stdout).toContain(`Assigned ${id} to ${sam.name}`);
    const mine = await runCli(["inbox", "--assignee", "me", "--json"], { env: sam.env });
    expect(mine.json.items.map((i: { id: string; human_action: string; assignee: string }) => [i.id, i.human_action, i.assignee])).toEqual([
      [id, ASKS, sam.name],
    ]);
    expect((await runCli(["inbox", "--assignee", "me"], { env: sam.env })).stdout).toContain(`Assigned to ${sam.name}`);
    expect((await runCli(["status"], { env: sam.env })).stdout).toContain("Inbox: 1 open (1 yours)");

    const agent = await runCli(["token", "create", "claude", "--kind", "agent"], { env: sam.env });
    const denied = await runCli(["assign", id, "--none", "--json"], { env: { ...sam.env, CAIRN_TOKEN: agent.stdout.trim() } });
    expect(denied.code).toBe(EXIT.auth);
    expect(denied.json.error.message).toContain("artifacts:assign");
    const unknown = await runCli(["assign", id, "nobody-at-all", "--json"], { env: sam.env });
    expect(unknown.code).toBe(EXIT.rejected);
    expect(unknown.json.error.issues[0].field).toBe("assignee");
    expect((await runCli(["assign", id], { env: sam.env })).code).toBe(EXIT.usage);
    // Nothing of yours, but others open: say so, and how many are open in all (SPEC §24).
    await runCli(["assign", id, "--none"], { env: sam.env });
    const open = (await runCli(["inbox", "--json"], { env: sam.env })).json.items.length;
    const notMine = await runCli(["inbox", "--assignee", "me"], { env: sam.env });
    expect(notMine.stdout.trim()).toBe(`Nothing is assigned to you (${open} open in all).`);
    await runCli(["assign", id, sam.name], { env: sam.env });

    const flagged = await runCli(["receipt", "--from", "-", "--assignee", sam.name, "--json"], {
      env: sam.env,
      input: JSON.stringify(minimalReceipt({ human_action: ASKS, learned: "assigned by flag" })),
    });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.json.assignee).toBe(sam.name);
    const cleared = await runCli(["assign", id, "--none", "--json"], { env: sam.env });
    expect(cleared.json.assignee).toBeNull();
    expect((await runCli(["inbox", "--assignee", "none", "--json"], { env: sam.env })).json.items.map((i: { id: string }) => i.id)).toContain(id);
  });

  it("cairn read heads the stored body with what is true now; cairn outcomes --state all names the receipt that closed each (SPEC §24)", async () => {
    const sam = await cliUser(server, "sam");
    const original = await server.rest(
      "POST",
      "/v1/receipts",
      sam.token,
      minimalReceipt({ human_action: ASKS, outcome: { status: "pending", measure_at: "2020-01-02" }, learned: "to measure" }),
    );
    const id = original.json.id as string;
    await runCli(["assign", id, sam.name], { env: sam.env });
    await runCli(["ack", id], { env: sam.env });
    const followUp = await server.rest(
      "POST",
      "/v1/receipts",
      sam.token,
      minimalReceipt({ follows: id, outcome: { status: "measured", summary: "fine" }, learned: "measured" }),
    );
    const read = await runCli(["read", id], { env: sam.env });
    expect(read.code, read.stderr).toBe(0);
    const [header, body] = read.stdout.split("\n# ");
    expect(header).toMatch(new RegExp(`assigned to +${sam.name}\n`));
    expect(header).toMatch(new RegExp(`acknowledged +${sam.name} acknowledged \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC`));
    expect(header).toMatch(new RegExp(`outcome +Measured in ${followUp.json.id}\n`));
    expect(header).toMatch(new RegExp(`followed by +${followUp.json.id}\n`));
    expect(header).toMatch(/lifetime +Expires \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // The stored body keeps its words: it is immutable.
    expect(body).toContain("Pending");
    const all = await runCli(["outcomes", "--state", "all"], { env: sam.env });
    expect(all.stdout).toContain(`${id}  closed  due 2020-01-02 00:00 UTC  measured in ${followUp.json.id}`);
  });
});
