import type { Store } from "@cairn/core";
import { createTestWorld, DRIVERS, openTestStore, type TestWorld } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebApp } from "../app.js";
import { formTokenIn, signIn } from "./helpers.js";

/** /settings/teams (SPEC §37): invite, accept, block and unblock, leave, each a form with the form token. */
describe.each(DRIVERS)("team invitations on the web on %s", (driver) => {
  const fx = {} as { store: Store; world: TestWorld; app: ReturnType<typeof createWebApp> };
  beforeAll(async () => {
    fx.store = await openTestStore(driver);
    fx.world = await createTestWorld(fx.store);
    fx.app = createWebApp(fx.world.cairn);
  });
  afterAll(async () => fx.store?.close());

  it("a member invites from the page; the invitee accepts there; a forged form changes nothing", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const team = (await fx.world.team([bob])).slice("team:".length);
    const b = await signIn(fx.app, bob);
    const page = await (await b.request("/settings/teams")).text();
    expect(page).toContain(`<option value="${team}">team:${team}</option>`);
    expect(page).toContain('aria-current="page">Teams</a>');

    expect((await b.request("/settings/teams/invite", { method: "POST", form: { csrf: "forged", team, user: alice.name } })).status).toBe(403);
    expect((await fx.world.cairn.invoke("team_read", bob.ctx(), { name: team })).invited).toEqual([]);
    const invited = await b.request("/settings/teams/invite", { method: "POST", form: { csrf: formTokenIn(page), team, user: alice.name } });
    expect([invited.status, invited.headers.get("location")]).toEqual([303, "/settings/teams?done=invited"]);
    expect(await (await b.request("/settings/teams?done=invited")).text()).toContain("Invited: they join when they accept.");
    const ghost = await b.request("/settings/teams/invite", { method: "POST", form: { csrf: formTokenIn(page), team, user: "no-such-person" } });
    expect([ghost.status, ghost.headers.get("location")]).toEqual([invited.status, invited.headers.get("location")]);

    const a = await signIn(fx.app, alice);
    const mine = await (await a.request("/settings/teams")).text();
    expect(mine).toContain(`<span class="title">team:${team}</span>`);
    expect(mine).toContain(`invited by ${bob.name}`);
    expect((await a.request(`/settings/teams/${team}/accept`, { method: "POST", form: { csrf: "forged" } })).status).toBe(403);
    const accepted = await a.request(`/settings/teams/${team}/accept`, { method: "POST", form: { csrf: formTokenIn(mine) } });
    expect(accepted.headers.get("location")).toBe("/settings/teams?done=joined");
    expect((await fx.world.cairn.invoke("team_read", bob.ctx(), { name: team })).members).toEqual([alice.name, bob.name].sort());
    const after = await (await a.request("/settings/teams?done=joined")).text();
    expect(after).toContain("No invitations are waiting for you.");
    expect(after).toContain(`aria-label="Leave team:${team}"`);
  });

  it("the invitee blocks from the page, and unblocks; leaving is a button too", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const team = (await fx.world.team([bob])).slice("team:".length);
    await fx.world.cairn.invoke("team_member_add", bob.ctx(), { name: team, user: alice.name });
    const a = await signIn(fx.app, alice);
    const page = await (await a.request("/settings/teams")).text();
    const blocked = await a.request(`/settings/teams/${team}/block`, { method: "POST", form: { csrf: formTokenIn(page) } });
    expect(blocked.headers.get("location")).toBe("/settings/teams?done=blocked");
    const shown = await (await a.request("/settings/teams?done=blocked")).text();
    expect(shown).toContain("<h2>Blocked teams</h2>");
    expect(shown).toContain(`aria-label="Unblock team:${team}"`);
    expect((await fx.world.cairn.invoke("team_invitation_list", alice.ctx(), {})).items.map((i) => i.state)).toEqual(["blocked"]);
    await a.request(`/settings/teams/${team}/unblock`, { method: "POST", form: { csrf: formTokenIn(page) } });
    expect((await fx.world.cairn.invoke("team_invitation_list", alice.ctx(), {})).items).toEqual([]);

    await fx.world.cairn.invoke("team_member_add", bob.ctx(), { name: team, user: alice.name });
    await a.request(`/settings/teams/${team}/accept`, { method: "POST", form: { csrf: formTokenIn(page) } });
    const left = await a.request(`/settings/teams/${team}/leave`, { method: "POST", form: { csrf: formTokenIn(page) } });
    expect(left.headers.get("location")).toBe("/settings/teams?done=left");
    expect((await fx.world.cairn.invoke("team_read", bob.ctx(), { name: team })).members).toEqual([bob.name]);
    expect((await a.request(`/settings/teams/${team}/explode`, { method: "POST", form: { csrf: formTokenIn(page) } })).status).toBe(404);
  });
});
