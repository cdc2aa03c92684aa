import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

const clock = Date.parse("2026-12-10T09:00:00.000Z");

describe("acting from the artifact page (SPEC §20)", () => {
  const fx = useWeb(() => new Date(clock));

  it("shows the share link, retains and assigns through forms with the form token, each confirmed on the next page", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim]);
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ owner: team }));
    const b = await signIn(fx.app, sam);
    const page = await (await b.request(`/a/${asks.id}`)).text();
    expect(page).toContain(`<input id="share-link" data-part="share-link" readonly value="${asks.url}">`);
    // Who may be assigned: the owner team's members, and nobody.
    const options = [...page.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
    expect(options).toEqual(["", ...[sam.name, kim.name].sort()]);

    expect((await b.request(`/a/${asks.id}/retain`, { method: "POST", form: { csrf: "forged" } })).status).toBe(403);
    const retained = await b.request(`/a/${asks.id}/retain`, { method: "POST", form: { csrf: formTokenIn(page) } });
    expect([retained.status, retained.headers.get("location")]).toEqual([303, `/a/${asks.id}?done=retained`]);
    const afterRetain = await (await b.request(`/a/${asks.id}?done=retained`)).text();
    expect(afterRetain).toContain('role="status" data-part="notice">Retained: it does not expire.</p>');
    expect(afterRetain).toContain("<dt>Lifetime</dt><dd>Retained: it does not expire.</dd>");

    const assigned = await b.request(`/a/${asks.id}/assign`, { method: "POST", form: { csrf: formTokenIn(page), assignee: kim.name } });
    expect(assigned.headers.get("location")).toBe(`/a/${asks.id}?done=assigned`);
    const afterAssign = await (await b.request(`/a/${asks.id}?done=assigned`)).text();
    expect(afterAssign).toContain(`Assigned to ${kim.name}.`);
    expect(afterAssign).toContain(`<option value="${kim.name}" selected>`);
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id })).assignee).toBe(kim.name);

    const acked = await b.request(`/a/${asks.id}/acknowledge`, { method: "POST", form: { csrf: formTokenIn(page), next: `/a/${asks.id}` } });
    expect(acked.headers.get("location")).toBe(`/a/${asks.id}?done=acknowledged`);
    const afterAck = await (await b.request(`/a/${asks.id}?done=acknowledged`)).text();
    expect(afterAck).toContain("Acknowledged: you said you saw what it asks.");
    expect(afterAck).toMatch(/<p class="chip calm" data-part="chip">.*data-part="acknowledged">✓ Acknowledged<\/span><\/p>/s);
    expect(afterAck).toContain(`${sam.name} acknowledged 2026-12-10 09:00 UTC</time>`);

    // The bin reads it as acknowledged, no longer waiting; the Mine tab is kim's.
    const bin = await (await b.request("/")).text();
    expect(bin).toContain(`data-part="acknowledged">✓ ${sam.name} acknowledged 2026-12-10 09:00 UTC`);
    const kb = await signIn(fx.app, kim);
    const mine = await (await kb.request("/inbox?state=mine")).text();
    expect(mine).toContain('aria-current="page">Mine</a>');
    expect(mine).toContain("Nothing open is assigned to you.");
    const all = await (await kb.request("/inbox?state=all")).text();
    expect(all).toContain(`Assigned to <strong>${kim.name}</strong>`);
    expect(all).not.toContain("waiting ");
  });

  it("an assignee who leaves the team is unassigned (core clears it), so the form offers nobody selected and no option for them", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim]);
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ owner: team, assignee: kim.name }));
    await fx.world.cairn.invoke("team_member_remove", sam.ctx(), { name: team.replace(/^team:/, ""), user: kim.name });
    const page = await (await (await signIn(fx.app, sam)).request(`/a/${asks.id}`)).text();
    expect(page).toMatch(/<option value="" selected>/);
    expect(page).not.toContain(`<option value="${kim.name}"`);
  });

  it("marks an overdue outcome; a follow-up turns it to Measured in, linked by title, and the follow-up says what it follows", async () => {
    const lee = await fx.world.user("lee");
    const original = await fx.world.cairn.invoke(
      "receipt_create",
      lee.ctx(),
      minimalReceipt({ outcome: { status: "pending", measure_at: "2026-12-05T09:00:00Z" }, learned: "pending one" }),
    );
    const b = await signIn(fx.app, lee);
    const before = await (await b.request(`/a/${original.id}`)).text();
    expect(before).toContain('<time class="when" data-field="outcome.measure_at">2026-12-05 09:00 UTC</time>');
    expect(before).toContain('data-part="overdue">Overdue</span>');
    // A link holder learns whether a later receipt follows it (never which), so the share page marks it overdue too.
    const sharePath = `/s/${original.url.split("/s/")[1]}`;
    const shared = await (await fx.app.request(sharePath)).text();
    expect(shared).toContain("2026-12-05 09:00 UTC");
    expect(shared).toContain("Overdue");
    expect(await (await b.request("/?outcome=overdue")).text()).toContain(original.title);

    const followUp = await fx.world.cairn.invoke(
      "receipt_create",
      lee.ctx(),
      minimalReceipt({ changed: "Measured the retry rate", outcome: { status: "measured", summary: "fine" }, follows: original.id, learned: "measured" }),
    );
    const after = await (await b.request(`/a/${original.id}`)).text();
    const outcomeOf = (page: string) => page.match(/<span class="label">Outcome<\/span>[\s\S]*?<\/p>/)?.[0] ?? "";
    expect(after).not.toContain("Overdue");
    // SPEC §24: the card reads as closed — "Measured in <follow-up>", not "Pending · measure at …".
    expect(outcomeOf(after)).toContain(`Measured in</strong> <a data-field="followed_by" href="/a/${followUp.id}">Measured the retry rate</a>`);
    expect(outcomeOf(after)).not.toMatch(/Pending|measure at/);
    // The share page says it was measured, without naming the follow-up its holder cannot open.
    const sharedAfter = await (await fx.app.request(sharePath)).text();
    expect(outcomeOf(sharedAfter)).toContain("Measured in</strong> a later receipt");
    expect(sharedAfter).not.toMatch(/Pending|Overdue/);
    expect(sharedAfter).not.toContain(followUp.id);
    expect(await (await b.request("/?outcome=overdue")).text()).not.toContain(original.title);
    const bin = await (await b.request("/")).text();
    expect(bin).toContain("Measured in a later receipt");
    const follow = await (await b.request(`/a/${followUp.id}`)).text();
    expect(follow).toContain(`<a data-field="follows" href="/a/${original.id}">${original.title}</a>`);
  });

  it("renders details tables with cells and links bare URLs through markdown-it's linkify", async () => {
    const ann = await fx.world.user("ann");
    const r = await fx.world.cairn.invoke(
      "receipt_create",
      ann.ctx(),
      minimalReceipt({ learned: "tables", details: "| a | b |\n|---|---|\n| 1 | 2 |\n\nSee https://ci.example.com/runs/7 for the run." }),
    );
    const page = await (await (await signIn(fx.app, ann)).request(`/a/${r.id}`)).text();
    expect(page).toContain("<td>1</td>");
    expect(page).toContain('<a href="https://ci.example.com/runs/7" rel="noopener noreferrer">https://ci.example.com/runs/7</a>');
  });
});
