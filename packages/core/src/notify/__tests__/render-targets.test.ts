import { describe, expect, it } from "vitest";
import { startReceiver } from "../../testing/receiver.js";
import { MESSAGE_FITS, NTFY_BODY_BYTES } from "../drivers.js";
import { escapeMrkdwn, htmlOf, messageOf, plainTextOf, SLACK_SECTION_CHARS, slackBodyOf } from "../render.js";
import { channelTargetIssue, maskTarget } from "../targets.js";
import { headerText, ntfyRequest, postTo } from "../transports.js";

const content = {
  kind: "assigned",
  artifact_id: "art_06h38y7rz06p4rnjwfvskcws4m",
  title: "Rotated <the> key",
  human_action: "Tell ops & <b>security</b>",
  owner: "team:ops",
  provenance: { actor: { id: "tok_x", name: "claude", kind: "agent" as const }, on_behalf_of: "sam", model: null, surface: "mcp" as const },
  assignee: "sam",
};

describe("notification words and targets", () => {
  it("escapes for each channel: Slack's three characters, HTML in full; links go to /a/:id", () => {
    expect(escapeMrkdwn("a & b <c> d")).toBe("a &amp; b &lt;c&gt; d");
    const m = messageOf([content], "https://cairn.example.com");
    expect(m.link?.url).toBe("https://cairn.example.com/a/art_06h38y7rz06p4rnjwfvskcws4m");
    expect(m.context).toContain("Receipt asserted by claude for sam, via MCP");
    const html = htmlOf(m);
    expect(html).toContain("Tell ops &amp; &lt;b&gt;security&lt;/b&gt;");
    expect(html).not.toContain("<b>security</b>");
    const slack = slackBodyOf(m) as { text: string; blocks: Array<{ type: string }> };
    expect(slack.text).toContain("Rotated &lt;the&gt; key");
    expect(slack.blocks.map((b) => b.type)).toEqual(["section", "context", "actions"]);
  });

  it("a grouped message shows what its channel carries whole, then says how many more and links the inbox", () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ ...content, artifact_id: `art_${String(i).padStart(26, "0")}`, title: "x".repeat(400) }));
    const slack = messageOf(many, "https://cairn.example.com", MESSAGE_FITS.slack);
    expect(slack.shown).toBeGreaterThan(1);
    expect(slack.shown).toBeLessThan(50);
    expect(slack.more).toEqual({ count: 50 - slack.shown, url: "https://cairn.example.com/inbox" });
    const section = (slackBodyOf(slack) as { blocks: Array<{ text?: { text: string } }> }).blocks[0]?.text?.text ?? "";
    expect(section.length).toBeLessThanOrEqual(SLACK_SECTION_CHARS);
    expect(section).toContain(`and ${50 - slack.shown} more_ — <https://cairn.example.com/inbox|open the inbox>`);
    expect(section.match(/\/a\/art_/g)).toHaveLength(slack.shown); // every line shown keeps its link
    const ntfy = messageOf(many, "https://cairn.example.com", MESSAGE_FITS.ntfy);
    expect(Buffer.byteLength(ntfyRequest(ntfy).body)).toBeLessThanOrEqual(NTFY_BODY_BYTES);
    expect(ntfyRequest(ntfy).body).toContain(`…and ${50 - ntfy.shown} more: https://cairn.example.com/inbox`);
    const mail = messageOf(many, "https://cairn.example.com", MESSAGE_FITS.email);
    expect([mail.shown, mail.more]).toEqual([50, null]);
    expect(plainTextOf(mail)).not.toContain("more:");
    expect(htmlOf(slack)).toContain('more: <a href="https://cairn.example.com/inbox">open the inbox</a>');
  });

  it("shows bidi overrides, isolates and control characters as visible escapes in every channel's text", () => {
    const hostile = {
      ...content,
      title: "Invoice \u202egpj.exe\u202c paid",
      human_action: "Sign in at \u2066https://evil.example\u2069\u001b]52;c;aGk=\u0007",
      owner: "team:\u202aops\u202b\u202d",
    };
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
    const bidi = /[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    for (const m of [messageOf([hostile], "https://cairn.example.com"), messageOf([hostile, hostile], "https://cairn.example.com", MESSAGE_FITS.slack)]) {
      for (const out of [
        plainTextOf(m).replace(/\n/g, " "),
        htmlOf(m).replace(/\n/g, " "),
        JSON.parse(JSON.stringify(slackBodyOf(m))).blocks[0].text.text,
        ntfyRequest(m).body.replace(/\n/g, " "),
      ]) {
        expect(out).not.toMatch(bidi);
        expect(out).toContain("\\u2066https://evil.example\\u2069"); // visible, as the CLI shows it
      }
      expect(ntfyRequest(m).headers.title).not.toMatch(bidi);
      expect(JSON.stringify(slackBodyOf(m))).not.toMatch(bidi);
    }
    expect(plainTextOf(messageOf([hostile], "https://cairn.example.com"))).toContain("\\x1b]52;c;aGk=\\x07");
  });

  it("names target in every refusal and masks URLs after creation", () => {
    expect(channelTargetIssue("email", "sam@example.com")).toBeNull();
    expect(channelTargetIssue("email", "sam <sam@example.com>")?.field).toBe("target");
    expect(channelTargetIssue("slack", "https://hooks.slack.com/")?.reason).toContain("no path");
    expect(channelTargetIssue("slack", "https://u:p@hooks.slack.com/services/x")?.reason).toContain("credentials");
    expect(channelTargetIssue("ntfy", "https://u:p@ntfy.example.com/topic")).toBeNull();
    expect(maskTarget("slack", "https://hooks.slack.com/services/T000/B000/XXXXabcd")).toBe("https://hooks.slack.com/…abcd");
    expect(maskTarget("ntfy", "https://u:p@ntfy.example.com/secret-topic")).toBe("https://•••@ntfy.example.com/…opic");
    expect(headerText("Ünïcode title")).toMatch(/^=\?UTF-8\?B\?/);
    expect(headerText("plain\r\ntitle")).toBe("plain title");
  });

  it("refuses a loopback target at send time when private targets are denied, and sends to it otherwise", async () => {
    const receiver = await startReceiver("/topic");
    try {
      const denied = await postTo(receiver.url, {}, "x", { denyPrivate: true, mail: undefined, timeoutMs: 5_000 });
      expect(denied).toMatchObject({ ok: false, status: null });
      expect(denied.error).toContain("CAIRN_WEBHOOK_DENY_PRIVATE");
      expect(receiver.received).toHaveLength(0);
      const sent = await postTo(receiver.url.replace("http://", "http://al%20ice:pw@"), { title: "t" }, "body", {
        denyPrivate: false,
        mail: undefined,
        timeoutMs: 5_000,
      });
      expect(sent).toMatchObject({ ok: true, status: 200 });
      expect(receiver.received[0]?.headers.authorization).toBe(`Basic ${Buffer.from("al ice:pw").toString("base64")}`);
    } finally {
      await receiver.close();
    }
  });

  it("waits as a busy channel asks: Retry-After in seconds or as an HTTP date, on 429 and 503", async () => {
    const receiver = await startReceiver("/topic");
    const settings = { denyPrivate: false, mail: undefined, timeoutMs: 5_000 };
    try {
      const inFiveMinutes = new Date(Math.ceil(Date.now() / 1000) * 1000 + 300_000).toUTCString();
      receiver.script(
        { status: 429, headers: { "retry-after": "120" } },
        { status: 503, headers: { "retry-after": inFiveMinutes } },
        { status: 500, headers: { "retry-after": "120" } },
      );
      const seconds = await postTo(receiver.url, {}, "x", settings);
      expect(seconds).toMatchObject({ ok: false, status: 429, error: "HTTP 429", retryAfterMs: 120_000 });
      const date = await postTo(receiver.url, {}, "x", settings);
      expect(date).toMatchObject({ ok: false, status: 503 });
      // Five minutes from the next whole second: at most 301 s away, and well over 4 minutes.
      expect(date.retryAfterMs).toBeGreaterThan(240_000);
      expect(date.retryAfterMs).toBeLessThanOrEqual(301_000);
      const other = await postTo(receiver.url, {}, "x", settings);
      expect(other).toMatchObject({ ok: false, status: 500 });
      expect(other.retryAfterMs).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});
