import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { createTestHome, DRIVERS, eventually, minimalReceipt, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../server.js";

type Json = any;

/**
 * SPEC §37 against a real `cairn serve` and a loopback Slack receiver: Bob invites Alice,
 * and until she says yes his team's receipts neither notify nor assign her. "Nothing
 * arrived" is proven by a later probe that does arrive, not by a sleep.
 */
describe.each(DRIVERS)("team invitations through cairn serve on %s", (driver) => {
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let slack: TestReceiver;
  let server: RunningServer;
  let admin = "";

  const call = async (method: string, path: string, bearer: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : text) as Json, text };
  };
  const user = async (name: string) => (await call("POST", "/v1/users", admin, { name })).json.token.token as string;
  const receipt = async (bearer: string, overrides: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = await call("POST", "/v1/receipts", bearer, { ...minimalReceipt(overrides), ...extra });
    return r;
  };
  const slackFor = (id: string) => slack.received.filter((r) => r.body.includes(`/a/${id}`));

  beforeAll(async () => {
    home = await createTestHome(driver);
    slack = await startReceiver("/services/T000/B000/invites");
    const settings = resolveSettings({ ...home.env, PORT: "0", HOST: "127.0.0.1" });
    server = await startServer(settings, { info: () => {} }, "test");
    admin = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await slack?.close();
    await home?.dispose();
  });

  it("an invited user is not notified or assigned by the team until they accept; then they are", async () => {
    const [bob, alice] = [await user("bob"), await user("alice")];
    expect((await call("POST", "/v1/me/channels", alice, { kind: "slack", target: slack.url })).status).toBe(201);
    expect((await call("POST", "/v1/teams", bob, { name: "payments" })).status).toBe(201);
    const invited = await call("POST", "/v1/teams/payments/members", bob, { user: "alice" });
    expect(invited.json).toMatchObject({ members: ["bob"], invited: ["alice"] });

    const open = await receipt(bob, { owner: "team:payments", human_action: "Sign in at https://evil.example/reset" });
    expect(open.status, open.text).toBe(201);
    const assigned = await receipt(bob, { owner: "team:payments", changed: "Moved the reset page", human_action: "Reset now" }, { assignee: "alice" });
    expect(assigned.status).toBe(422);
    expect(assigned.json.error.issues[0].field).toBe("assignee");
    const later = await receipt(bob, { owner: "team:payments", changed: "Moved the login page", human_action: "Log in now" });
    const reassign = await call("POST", `/v1/artifacts/${later.json.id}/assign`, bob, { assignee: "alice" });
    expect(reassign.status).toBe(422);

    // A probe that does reach Alice, written after the team's receipts: once it is here, they were passed over.
    const probe = await receipt(alice, { changed: "Her own change to the pager rota", human_action: "Check the rota" });
    await eventually(async () => slackFor(probe.json.id).length === 1, 20_000, 50);
    expect(slackFor(open.json.id)).toHaveLength(0);
    expect(slackFor(later.json.id)).toHaveLength(0);

    expect((await call("POST", "/v1/invitations/payments/accept", alice)).json.members).toEqual(["alice", "bob"]);
    const now = await call("POST", `/v1/artifacts/${later.json.id}/assign`, bob, { assignee: "alice" });
    expect(now.status, now.text).toBe(200);
    await eventually(async () => slackFor(later.json.id).length === 1, 20_000, 50);
    const team = await receipt(bob, { owner: "team:payments", changed: "Raised the payout limit", human_action: "Approve the limit" });
    await eventually(async () => slackFor(team.json.id).length === 1, 20_000, 50);
  }, 90_000);
});
