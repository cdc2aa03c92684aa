import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import type { Store } from "@cairn/core";
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
