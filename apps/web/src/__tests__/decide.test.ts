import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

let clock = Date.parse("2026-12-07T10:00:00.000Z");
const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
  answer_by: "2026-12-09T17:00:00Z",
};

describe("answering an ask from the artifact page (SPEC §32)", () => {
  const fx = useWeb(() => new Date(clock));

  it("shows one button per option and the deadline, answers through the form with via web, then reads Decided with the comment", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx("mcp"), { ...minimalReceipt(), human_action: "Approve the migration?", ask: ASK });
    const b = await signIn(fx.app, sam);
    const page = await (await b.request(`/a/${asks.id}`)).text();
    expect(page).toContain(`<form class="ask" data-part="ask" data-state="open" method="post" action="/a/${asks.id}/decide">`);
    expect([...page.matchAll(/<button type="submit" name="option" value="([^"]+)">([^<]+)<\/button>/g)].map((m) => [m[1], m[2]])).toEqual([
      ["approve", "Approve"],
      ["reject", "Reject"],
    ]);
    expect(page).toContain('Answer by <time class="when">2026-12-09 17:00 UTC</time>');
    // One card, one ask: the page holds each once.
    expect(page.split('data-part="chip"').length - 1).toBe(1);
    expect(page.split('data-part="ask"').length - 1).toBe(1);
    // The buttons answer (and acknowledge): no separate Acknowledge form while the ask is open.
    expect(page).not.toContain("/acknowledge");

    expect((await b.request(`/a/${asks.id}/decide`, { method: "POST", form: { csrf: "forged", option: "approve" } })).status).toBe(403);
    const decided = await b.request(`/a/${asks.id}/decide`, { method: "POST", form: { csrf: formTokenIn(page), option: "approve", comment: "Go ahead" } });
    expect([decided.status, decided.headers.get("location")]).toEqual([303, `/a/${asks.id}?done=decided`]);
    const after = await (await b.request(`/a/${asks.id}?done=decided`)).text();
    expect(after).toContain(`data-part="notice">Decided: Approve — ${sam.name}, 2026-12-07 10:00 UTC.</p>`);
    expect(after).toContain(`<strong>Decided: Approve — ${sam.name}, 2026-12-07 10:00 UTC</strong>`);
    expect(after).toContain('<span class="label">Comment</span> Go ahead');
    expect(after).not.toContain('name="option"');
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    expect(read.decision).toMatchObject({ state: "decided", option: "approve", via: "web", comment: "Go ahead" });

    const late = await b.request(`/a/${asks.id}/decide`, { method: "POST", form: { csrf: formTokenIn(page), option: "reject" } });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Already answered");
  });

  it("shows the ask on the share page read-only: its options and deadline, then the decision, and a new validator once the deadline passes", async () => {
    const sam = await fx.world.user("sam");
    const share = async (url: string, etag?: string) => {
      const res = await fx.app.request(`/s/${url.split("/s/")[1]}`, etag ? { headers: { "if-none-match": etag } } : {});
      return { status: res.status, etag: res.headers.get("etag"), html: await res.text() };
    };
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx("mcp"), { ...minimalReceipt(), human_action: "Approve the migration?", ask: ASK });
    const open = await share(asks.url);
    expect(open.html).toContain('<div class="ask" data-part="ask" data-state="open"><span class="label">Choose one</span>');
    expect([...open.html.matchAll(/<li data-option="([^"]+)">([^<]+)<\/li>/g)].map((m) => m[1])).toEqual(["approve", "reject"]);
    expect(open.html).toContain('Answer by <time class="when">2026-12-09 17:00 UTC</time>');
    // A link holder cannot answer: no form, no buttons.
    expect(open.html).not.toContain("/decide");
    expect(open.html).not.toContain('name="option"');
    expect((await share(asks.url, open.etag ?? "")).status).toBe(304);

    // Past the deadline the page says so before the worker has marked it, so the validator changes with time alone.
    const saved = clock;
    clock = Date.parse("2026-12-09T17:00:01.000Z");
    try {
      const late = await share(asks.url, open.etag ?? "");
      expect(late.status).toBe(200);
      expect(late.html).toContain("<strong>Expired unanswered: 2026-12-09 17:00 UTC</strong>");
    } finally {
      clock = saved;
    }

    await fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: asks.id, option: "reject", comment: "Not this week" });
    const decided = await share(asks.url, open.etag ?? "");
    expect(decided.status).toBe(200);
    expect(decided.html).toContain(`<strong>Decided: Reject — ${sam.name}, 2026-12-07 10:00 UTC</strong>`);
    expect(decided.html).toContain('<span class="label">Comment</span> Not this week');
  });
});
