import { DRIVERS, eventually, minimalReceipt, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, spawnServe } from "../serve.js";

/** What reorders or rewrites what a person reads: bidi overrides and isolates, C0/C1 controls but newline and tab. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Storable text built to mislead a reader of a notification (SPEC §37); three, so each goes alone (not grouped). */
const HOSTILE_TEXT: ReadonlyArray<[string, string]> = [
  ["override", "Invoice \u202egpj.exe\u202c paid"],
  ["isolates", "Sign in at \u2066https://evil.example/reset\u2069 now"],
  ["embeddings and terminal escapes", "a\u202ab\u202bc\u202dd\u202c done \u001b]52;c;aGVsbG8=\u0007 \u001b[2K Receipt verified"],
];

/**
 * Hostile titles and actions through a real `cairn serve` to real Slack and ntfy loopback
 * receivers: what arrives carries every character as a visible escape, never raw.
 */
describe.each(DRIVERS)("notifications of hostile text through `cairn serve`, on %s", (driver) => {
  let s: ServeProcess;
  let slack: TestReceiver;
  let ntfy: TestReceiver;
  beforeAll(async () => {
    s = await spawnServe(driver);
    slack = await startReceiver("/services/T/B/hostile");
    ntfy = await startReceiver("/hostile-topic");
  });
  afterAll(async () => {
    await s?.close();
    await slack?.close();
    await ntfy?.close();
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${s.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { id: string } };
  };

  it.each(HOSTILE_TEXT)("%s in a title and an action reach Slack and ntfy only as visible escapes", async (_label, text) => {
    if (slack.received.length === 0 && ntfy.received.length === 0) {
      expect((await post("/v1/me/channels", { kind: "slack", target: slack.url })).status).toBe(201);
      expect((await post("/v1/me/channels", { kind: "ntfy", target: ntfy.url })).status).toBe(201);
    }
    const made = await post("/v1/receipts", { ...minimalReceipt({ title: `Deploy ${text}`, human_action: `Check ${text}` }), assignee: "admin" });
    expect(made.status).toBe(201);
    const link = `/a/${made.json.id}`;
    const [toSlack, toNtfy] = await eventually(async () => {
      const sl = slack.received.find((r) => r.body.includes(link));
      const nt = ntfy.received.find((r) => String(r.headers.click ?? "").endsWith(link));
      return sl && nt ? ([sl, nt] as const) : null;
    }, 20_000);
    const slackText = JSON.stringify(JSON.parse(toSlack.body));
    expect(slackText).not.toMatch(UNSAFE);
    expect(toNtfy.body).not.toMatch(UNSAFE);
    const title = String(toNtfy.headers.title);
    const decoded = title.startsWith("=?UTF-8?B?") ? Buffer.from(title.slice(10, -2), "base64").toString("utf8") : title;
    expect(decoded).not.toMatch(UNSAFE);
    expect(toNtfy.body).toMatch(/\\(u20|x1b)/); // shown, not dropped
  });
});
