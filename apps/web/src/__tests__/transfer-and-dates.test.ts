import type { Store } from "@cairn/core";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebApp } from "../app.js";
import { formTokenIn, signIn } from "./helpers.js";

/** The artifact page's "Move to a team" form (SPEC §34): for whoever acts for the owner, with the form token. */
describe.each(DRIVERS)("moving a receipt to a team from its page on %s", (driver) => {
  const fx = {} as { store: Store; world: TestWorld; app: ReturnType<typeof createWebApp> };
  beforeAll(async () => {
    fx.store = await openTestStore(driver);
    fx.world = await createTestWorld(fx.store);
    fx.app = createWebApp(fx.world.cairn);
  });
  afterAll(async () => fx.store?.close());

  it("offers the owner's teams, moves it on a genuine form, and says so; a forged form moves nothing", async () => {
    const [sam, kim] = [await fx.world.user("sam"), await fx.world.user("kim")];
    const team = await fx.world.team([sam, kim]);
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ human_action: "Approve the budget" }));
    const b = await signIn(fx.app, sam);
    const page = await (await b.request(`/a/${receipt.id}`)).text();
    expect(page).toContain('<label for="transfer-owner">Move to a team</label>');
    expect(page).toContain(`<option value="${team}">${team}</option>`);

    expect((await b.request(`/a/${receipt.id}/transfer`, { method: "POST", form: { csrf: "forged", owner: team } })).status).toBe(403);
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id })).owner).toBe(`user:${sam.name}`);
    const moved = await b.request(`/a/${receipt.id}/transfer`, { method: "POST", form: { csrf: formTokenIn(page), owner: team } });
    expect([moved.status, moved.headers.get("location")]).toEqual([303, `/a/${receipt.id}?done=transferred`]);
    const after = await (await b.request(`/a/${receipt.id}?done=transferred`)).text();
    expect(after).toContain(`Moved to ${team}: its members read it and may be assigned it.`);
    expect(after).toContain(`<dt>Owner</dt><dd>${team}</dd>`);
    expect(after).not.toContain("Move to a team"); // no other team to move it to
    expect(after).toContain(`<option value="${kim.name}">`); // now a teammate can be assigned

    const k = await signIn(fx.app, kim);
    expect((await k.request(`/a/${receipt.id}`)).status).toBe(200);
  });
});

/** The bin's date filter (SPEC §34): `created_after` as people type it, echoed back into the form. */
describe.each(DRIVERS)("the bin's date filter on %s", (driver) => {
  const fx = {} as { store: Store; world: TestWorld; app: ReturnType<typeof createWebApp> };
  const later = { days: 0 };
  beforeAll(async () => {
    fx.store = await openTestStore(driver);
    fx.world = await createTestWorld(fx.store, () => new Date(Date.now() + later.days * 86_400_000));
    fx.app = createWebApp(fx.world.cairn);
  });
  afterAll(async () => fx.store?.close());

  it("filters by a typed span (2d, 4d), echoes the value, and says what is accepted for anything else", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "in the bin" }));
    const b = await signIn(fx.app, sam);
    const page = await (await b.request("/?created_after=2d")).text();
    expect(page).toContain('<input id="f-created_after" name="created_after" value="2d"');
    expect(page).toContain(`/a/${receipt.id}`);
    later.days = 3;
    expect(await (await b.request("/?created_after=2d")).text()).not.toContain(`/a/${receipt.id}`);
    expect(await (await b.request("/?created_after=4d")).text()).toContain(`/a/${receipt.id}`);
    later.days = 0;
    const bad = await b.request("/?created_after=next%20week");
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("a time back from now in days or hours (2d, 36h), today or yesterday (UTC)");
  });
});
