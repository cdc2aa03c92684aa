import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { createTestHome, DRIVERS, eventually, minimalReceipt, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../server.js";
import { homeFor, spawnServe } from "./serve-process.js";

/** A real SMTP server on loopback (STACK.md "Mail"): keeps every message, parsed; answers 550 at RCPT for `bounce@…`. */
async function startSmtp() {
  const mails: Array<ParsedMail & { rcpt: string[] }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith("bounce@")) {
        const err = new Error("5.1.1 No such user here") as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(Object.assign(mail, { rcpt: session.envelope.rcptTo.map((r) => r.address) }));
          cb();
        },
        (err) => cb(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Json = any;

/**
 * SPEC §27 against a real `cairn serve` (one per store, shared by the file), a real SMTP
 * server and loopback receivers for Slack and ntfy. Time is the server's injected clock:
 * the test moves it forward instead of sleeping through remind_after.
 */
describe.each(DRIVERS)("notifications through cairn serve on %s", (driver) => {
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let slack: TestReceiver;
  let ntfy: TestReceiver;
  let server: RunningServer;
  let token = "";
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const advance = (seconds: number) => {
    offset += seconds * 1000;
  };

  const call = async (method: string, path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : text) as Json, text };
  };
  const slackFor = (id: string) => slack.received.filter((r) => r.body.includes(`/a/${id}`));
  const ntfyFor = (id: string) => ntfy.received.filter((r) => r.headers.click === `${server.url}/a/${id}` || r.body.includes(`/a/${id}`));
  const mailsFor = (id: string) => smtp.mails.filter((m) => (m.text ?? "").includes(`/a/${id}`));
  const receipt = async (overrides: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = await call("POST", "/v1/receipts", { ...minimalReceipt(overrides), ...extra });
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };

  beforeAll(async () => {
    home = await createTestHome(driver);
    smtp = await startSmtp();
    slack = await startReceiver("/services/T000/B000/abcdefgh");
    ntfy = await startReceiver("/cairn-alerts");
    const settings = resolveSettings({
      ...home.env,
      PORT: "0",
      HOST: "127.0.0.1",
      CAIRN_SMTP_URL: smtp.url,
      CAIRN_MAIL_FROM: "Cairn <cairn@example.com>",
      CAIRN_WEBHOOK_RETRY_DELAYS_MS: "200,200,200",
    });
    server = await startServer(settings, { info: () => {} }, "test", { now });
    token = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await slack?.close();
    await ntfy?.close();
    await smtp?.close();
    await home?.dispose();
  });

  it("refuses agent tokens naming notifications:write, and a bad target with a 422 naming target", async () => {
    const agent = await call("POST", "/v1/tokens", { name: "ci", kind: "agent" });
    expect(agent.status).toBe(201);
    for (const [method, path, body] of [
      ["GET", "/v1/me/channels", undefined],
      ["POST", "/v1/me/channels", { kind: "slack", target: slack.url }],
      ["PUT", "/v1/me/notifications", { remind_after: 60 }],
      ["POST", "/v1/me/feed-key", undefined],
    ] as const) {
      const refused = await call(method, path, body, agent.json.token);
      expect(refused.status, path).toBe(403);
      expect(refused.json.error.message).toContain("notifications:write");
    }
    for (const body of [
      { kind: "slack", target: "not a url" },
      { kind: "ntfy", target: "ftp://ntfy.example.com/topic" },
      { kind: "email", target: "sam at example.com" },
    ]) {
      const bad = await call("POST", "/v1/me/channels", body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json.error.issues[0].field).toBe("target");
    }
  });

  it("confirms an address through the mailed link: the GET shows a button and changes nothing, the POST confirms", async () => {
    const created = await call("POST", "/v1/me/channels", { kind: "email", target: "sam@example.com" });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ kind: "email", target: "sam@example.com", state: "pending", disabled_reason: null });
    const mail = await eventually(async () => smtp.mails.find((m) => m.rcpt.includes("sam@example.com")), 15_000);
    expect(mail.subject).toContain("Confirm");
    const link = /https?:\/\/\S+\/notifications\/confirm\/[A-Za-z0-9_-]+/.exec(mail.text ?? "")?.[0] as string;
    expect(link).toBeTruthy();
    expect(mail.html).toContain(link);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post"');
    const stillPending = await call("GET", "/v1/me/channels");
    expect(stillPending.json.items.find((c: Json) => c.id === created.json.id).state).toBe("pending");

    const confirmed = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Address confirmed");
    const active = await call("GET", "/v1/me/channels");
    expect(active.json.items.find((c: Json) => c.id === created.json.id).state).toBe("active");
  });

  it("an assigned open action reaches email, Slack and ntfy within seconds, with the action and its /a/:id link, exactly once each", async () => {
    const s = await call("POST", "/v1/me/channels", { kind: "slack", target: slack.url });
    expect(s.status).toBe(201);
    expect(s.json).toMatchObject({ kind: "slack", state: "active" });
    expect(s.json.target).not.toContain("abcdefgh/"); // masked: the secret path is not shown
    expect(s.json.target).not.toBe(slack.url);
    const ntfyUrl = ntfy.url.replace("http://", "http://alice:s3cret@");
    const n = await call("POST", "/v1/me/channels", { kind: "ntfy", target: ntfyUrl });
    expect(n.status).toBe(201);
    expect(n.json.target).not.toContain("s3cret");
    expect(n.json.target).not.toContain("cairn-alerts");

    const me = (await call("GET", "/v1/me")).json.user.name as string;
    const started = Date.now();
    const id = await receipt({ human_action: "Rotate the <prod> key & tell ops" }, { assignee: me });
    await eventually(async () => slackFor(id).length > 0 && ntfyFor(id).length > 0 && mailsFor(id).length > 0, 15_000, 50);
    expect(Date.now() - started).toBeLessThan(10_000);
    const link = `${server.url}/a/${id}`;

    const [sl] = slackFor(id);
    const slackBody = JSON.parse(sl?.body as string);
    expect(typeof slackBody.text).toBe("string");
    expect(slackBody.text).toContain("Rotate the &lt;prod&gt; key &amp; tell ops"); // Slack's mrkdwn escaping
    const types = slackBody.blocks.map((b: Json) => b.type);
    expect(types).toEqual(expect.arrayContaining(["section", "context", "actions"]));
    const button = slackBody.blocks.find((b: Json) => b.type === "actions").elements[0];
    expect(button).toMatchObject({ type: "button", url: link });
    expect(JSON.stringify(slackBody)).not.toContain("/s/"); // never the share link

    const [nt] = ntfyFor(id);
    expect(nt?.headers.title).toContain("Assigned to you");
    expect(nt?.headers.click).toBe(link);
    expect(nt?.headers.tags).toBeTruthy();
    expect(nt?.headers.priority).toMatch(/^[1-5]$/);
    expect(nt?.headers.authorization).toBe(`Basic ${Buffer.from("alice:s3cret").toString("base64")}`);
    expect(nt?.body).toContain("Rotate the <prod> key & tell ops");

    const [mail] = mailsFor(id);
    expect(mail?.text).toContain("Rotate the <prod> key & tell ops");
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain("Rotate the &lt;prod&gt; key &amp; tell ops");
    expect(mail?.html).toContain(`href="${link}"`);

    // Nothing more comes for it.
    await new Promise((r) => setTimeout(r, 2_500));
    expect([slackFor(id).length, ntfyFor(id).length, mailsFor(id).length]).toEqual([1, 1, 1]);
    const deliveries = await call("GET", `/v1/me/channels/${s.json.id}/deliveries`);
    expect(deliveries.json.items[0]).toMatchObject({ ok: true, status_code: 200, triggers: ["assigned"], notifications: 1 });
  }, 60_000);

  it("a reminder follows remind_after for an unacknowledged action, never for an acknowledged one", async () => {
    advance(120); // a fresh minute for every channel
    const settings = await call("PUT", "/v1/me/notifications", { remind_after: 60 });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.json).toMatchObject({ remind_after: 60, triggers: { reminder: true, digest: false } });
    expect((await call("PUT", "/v1/me/notifications", { remind_after: 59 })).status).toBe(422);

    const me = (await call("GET", "/v1/me")).json.user.name as string;
    const since = now().getTime();
    const waiting = await receipt({ changed: "Moved the nightly backup to a new bucket", human_action: "Check the restore drill" }, { assignee: me });
    const acked = await receipt({ changed: "Raised the connection limit of the pooler", human_action: "Approve the new limit" }, { assignee: me });
    // Every channel has both before the clock moves (a send in flight must not outlive its lease on the moved clock):
    // received, and recorded by the server, which ends the send's lease. A receiver has a message
    // before the server hears back from it; a send still open when the clock jumps is claimed
    // again with the reminder, in one grouped message.
    await eventually(
      async () => [waiting, acked].every((id) => slackFor(id).length === 1 && ntfyFor(id).length === 1 && mailsFor(id).length === 1),
      15_000,
      50,
    );
    const channels = ((await call("GET", "/v1/me/channels")).json.items as { id: string; state: string }[]).filter((c) => c.state === "active");
    expect(channels).toHaveLength(3);
    const recorded = async (channel: string) =>
      ((await call("GET", `/v1/me/channels/${channel}/deliveries`)).json.items as { at: string; ok: boolean; notifications: number }[])
        .filter((a) => a.ok && Date.parse(a.at) >= since)
        .reduce((n, a) => n + a.notifications, 0);
    await eventually(async () => (await Promise.all(channels.map((c) => recorded(c.id)))).every((n) => n >= 2), 15_000, 50);
    expect((await call("POST", `/v1/artifacts/${acked}/acknowledge`, {})).status).toBe(200);

    advance(61);
    await eventually(async () => slack.received.some((r) => r.body.includes("Reminder") && r.body.includes(`/a/${waiting}`)), 30_000, 100);
    await eventually(
      async () => ntfy.received.some((r) => String(r.headers.title).startsWith("Reminder") && r.headers.click === `${server.url}/a/${waiting}`),
      15_000,
      100,
    );
    await eventually(async () => smtp.mails.some((m) => m.subject?.startsWith("Reminder") && (m.text ?? "").includes(`/a/${waiting}`)), 15_000, 100);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(slack.received.filter((r) => r.body.includes("Reminder") && r.body.includes(`/a/${acked}`))).toHaveLength(0);
    expect(slack.received.filter((r) => r.body.includes("Reminder") && r.body.includes(`/a/${waiting}`))).toHaveLength(1);
  }, 90_000);

  it("an overdue outcome notifies its owner", async () => {
    advance(120);
    const id = await receipt({
      changed: "Switched the search cluster to the new shard layout",
      outcome: { status: "pending", measure_at: new Date(now().getTime() - 86_400_000).toISOString().slice(0, 10) },
    });
    advance(31); // the measure_due job's turn comes round on the server's clock
    await eventually(async () => slack.received.some((r) => r.body.includes("Outcome overdue") && r.body.includes(`/a/${id}`)), 30_000, 100);
    await eventually(async () => smtp.mails.some((m) => m.subject?.startsWith("Outcome overdue") && (m.text ?? "").includes(`/a/${id}`)), 15_000, 100);
  }, 60_000);

  it("a new open action with nobody assigned reaches the owner (open_action); switched off, nothing comes", async () => {
    advance(120);
    const id = await receipt({ changed: "Turned on the new rate limiter for the public API", human_action: "Watch the 429 rate" });
    const sent = await eventually(async () => slackFor(id)[0], 15_000, 50);
    expect(JSON.parse(sent.body).text).toContain("Waiting on you");
    await call("PUT", "/v1/me/notifications", { triggers: { open_action: false } });
    const quiet = await receipt({ changed: "Turned on the new rate limiter for the admin API", human_action: "Watch the admin 429 rate" });
    const probe = await receipt(
      { changed: "Moved the admin API behind the gateway", human_action: "Check the gateway logs" },
      { assignee: (await call("GET", "/v1/me")).json.user.name },
    );
    await eventually(async () => slackFor(probe).length === 1, 15_000, 50); // later work arrived, so the quiet one was passed over
    expect(slackFor(quiet)).toHaveLength(0);
    await call("PUT", "/v1/me/notifications", { triggers: { open_action: true } });
  }, 60_000);

  it("more than three to one channel within a minute are grouped into one message", async () => {
    advance(120);
    const me = (await call("GET", "/v1/me")).json.user.name as string;
    const before = slack.received.length;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(await receipt({ changed: `Rolled out the cache change to region ${i} of six`, human_action: `Check region ${i}` }, { assignee: me }));
    // At most three single messages in this minute; what is left waits for the minute to pass.
    await eventually(async () => slack.received.length - before >= 1, 15_000, 50);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(slack.received.length - before).toBeLessThanOrEqual(3);
    advance(61);
    await eventually(async () => ids.every((id) => slack.received.slice(before).some((r) => r.body.includes(`/a/${id}`))), 20_000, 100);
    const messages = slack.received.slice(before);
    expect(messages.length).toBeLessThan(ids.length);
    const grouped = messages.find((r) => JSON.parse(r.body).text.includes("notifications"));
    expect(grouped).toBeTruthy();
    // Each receipt in exactly one message.
    for (const id of ids)
      expect(
        messages.filter((r) => r.body.includes(`/a/${id}`)),
        id,
      ).toHaveLength(1);
  }, 60_000);

  it("the digest comes at digest_hour (UTC) with what waits", async () => {
    advance(120);
    if (now().getUTCMinutes() >= 58) advance(180); // not across an hour while the job comes round
    const set = await call("PUT", "/v1/me/notifications", { triggers: { digest: true }, digest_hour: now().getUTCHours() });
    expect(set.json.triggers.digest).toBe(true);
    advance(61); // the digest job's turn on the server's clock
    const digest = await eventually(async () => slack.received.find((r) => JSON.parse(r.body).text.includes("waiting on you")), 20_000, 100);
    expect(digest.body).toContain("Check the restore drill"); // still waits: assigned, unacknowledged
    expect(digest.body).not.toContain("Approve the new limit"); // acknowledged
    await call("PUT", "/v1/me/notifications", { triggers: { digest: false } });
  }, 60_000);

  it("serves the Atom feed with its key, newest first, and not with a wrong or replaced key", async () => {
    const first = await call("POST", "/v1/me/feed-key");
    expect(first.status, first.text).toBe(200);
    expect(first.json.url).toBe(`${server.url}/feeds/inbox.atom?key=${first.json.key}`);
    const feed = await fetch(first.json.url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("application/atom+xml");
    const xml = await feed.text();
    // RFC 4287: feed with id, title, updated, author; each entry with id, title, updated, link.
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    for (const el of ["id", "title", "updated", "author"]) expect(xml).toMatch(new RegExp(`<feed[\\s\\S]*?<${el}>`));
    const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1] as string);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e).toMatch(/<id>[^<]+<\/id>/);
      expect(e).toMatch(/<title>[^<]+<\/title>/);
      expect(e).toMatch(/<updated>\d{4}-\d{2}-\d{2}T[^<]+Z<\/updated>/);
      expect(e).toMatch(new RegExp(`<link rel="alternate" type="text/html" href="${server.url}/a/art_`));
    }
    expect(xml).toContain("Check the restore drill");
    expect(xml).not.toContain("Approve the new limit"); // acknowledged: no longer waits
    const updated = entries.map((e) => /<updated>([^<]+)</.exec(e)?.[1] as string);
    expect([...updated].sort().reverse()).toEqual(updated);

    expect((await fetch(`${server.url}/feeds/inbox.atom?key=cfk_${"x".repeat(43)}`)).status).toBe(404);
    const second = await call("POST", "/v1/me/feed-key");
    expect((await fetch(first.json.url)).status).toBe(404);
    expect((await fetch(second.json.url)).status).toBe(200);
  });

  it("a bouncing address (550 at RCPT) disables its channel with the reason, and doctor says so", async () => {
    const created = await call("POST", "/v1/me/channels", { kind: "email", target: "bounce@example.com" });
    expect(created.status).toBe(201);
    const disabled = await eventually(
      async () => {
        const list = await call("GET", "/v1/me/channels");
        const c = list.json.items.find((x: Json) => x.id === created.json.id);
        return c.state === "disabled" ? c : null;
      },
      15_000,
      100,
    );
    expect(disabled.disabled_reason).toContain("refused the address permanently (550)");
    const log = await call("GET", `/v1/me/channels/${created.json.id}/deliveries`);
    expect(log.json.items[0]).toMatchObject({ ok: false, status_code: 550, triggers: ["confirm"] });
    const doctor = await call("GET", "/v1/doctor");
    const check = doctor.json.checks.find((c: Json) => c.name === "Notifications");
    expect(check).toMatchObject({ status: "warn" });
    expect(check.summary).toContain("disabled");
    expect((await call("DELETE", `/v1/me/channels/${created.json.id}`)).status).toBe(200);
  });
});

/**
 * `kill -9` of the process sending (SPEC §27: nothing lost, nothing doubled): the Slack
 * receiver holds the first message open, the server dies, a new one takes the lease over
 * and sends it once; the database's unique key keeps the fan-out from queuing it twice.
 */
describe.each(DRIVERS)("notifications across a kill -9 on %s", (driver) => {
  it("the message in flight is sent once after restart, and nothing else is doubled", async () => {
    const { env, home, dispose } = await homeFor(driver);
    const slack = await startReceiver("/services/T1/B1/killnine");
    const tuned = { ...env, CAIRN_WEBHOOK_LEASE_MS: "1000" };
    try {
      const first = await spawnServe(tuned);
      const bearer = (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;
      const post = async (url: string, body: unknown) => {
        const res = await fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, json: (await res.json()) as Json };
      };
      const channel = await post(`${first.url}/v1/me/channels`, { kind: "slack", target: slack.url });
      expect(channel.status).toBe(201);
      slack.script("hang");
      const created = await post(`${first.url}/v1/receipts`, { ...minimalReceipt({ human_action: "Review the failover plan" }), assignee: "admin" });
      expect(created.status).toBe(201);
      const [hung] = await slack.waitFor(1, 15_000);
      expect(hung?.body).toContain(`/a/${created.json.id}`);
      await first.stop("SIGKILL");

      const second = await spawnServe(tuned);
      try {
        const [, resent] = await slack.waitFor(2, 20_000);
        // The same notification (the new server has a new port, so the link's host differs).
        expect(resent?.body).toContain(`/a/${created.json.id}`);
        expect(resent?.body).toContain("Review the failover plan");
        await new Promise((r) => setTimeout(r, 3_000));
        expect(slack.received).toHaveLength(2);
        const log = await fetch(`${second.url}/v1/me/channels/${channel.json.id}/deliveries`, { headers: { authorization: `Bearer ${bearer}` } });
        const items = ((await log.json()) as Json).items;
        expect(items).toHaveLength(1);
        expect(items[0]).toMatchObject({ ok: true, triggers: ["assigned"], notifications: 1 });
      } finally {
        await second.stop();
      }
    } finally {
      await slack.close();
      await dispose();
    }
  }, 90_000);
});
