import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

const clock = Date.parse("2026-12-07T10:00:00.000Z");
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
});
