import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

describe("web inbox and acknowledging", () => {
  const fx = useWeb();

  it("lists what waits on the person and acknowledges it through the form, once", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt());
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const b = await signIn(fx.app, sam);
    const inbox = await (await b.request("/inbox")).text();
    expect(inbox).toContain(asks.title);
    expect(inbox).not.toContain("Rotated the staging database password");
    expect(inbox).toContain('<label for="note-');
    const res = await b.request(`/a/${asks.id}/acknowledge`, {
      method: "POST",
      form: { csrf: formTokenIn(inbox), note: "Approved in #finance", next: "/inbox?state=open" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/inbox?state=open&done=acknowledged");
    expect(await (await b.request("/inbox")).text()).not.toContain(asks.title);
    const page = await (await b.request(`/a/${asks.id}`)).text();
    expect(page).toMatch(new RegExp(`${sam.name} acknowledged \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC</time>: <span class="text">Approved in #finance`));
    expect(page).not.toContain('/acknowledge"');
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    expect(read.acknowledgements).toHaveLength(1);
  });

  it("refuses an acknowledgement without the form token, and an outsider's", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ changed: "Another receipt that asks a person" }));
    const mine = await signIn(fx.app, sam);
    expect((await mine.request(`/a/${asks.id}/acknowledge`, { method: "POST", form: { csrf: "forged" } })).status).toBe(403);
    const outsider = await signIn(fx.app, eve);
    const page = await (await outsider.request("/")).text();
    const res = await outsider.request(`/a/${asks.id}/acknowledge`, { method: "POST", form: { csrf: formTokenIn(page) } });
    expect(res.status).toBe(404);
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    expect(read.acknowledgements).toEqual([]);
  });
});
