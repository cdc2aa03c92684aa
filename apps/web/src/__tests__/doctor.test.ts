import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

describe("the doctor page: drops a person dealt with stop warning (SPEC §24)", () => {
  const fx = useWeb();

  it("warns without pointing at itself, dismisses the listed drops with one button, and keeps them listed as dismissed", async () => {
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })).catch(() => null);
    const b = await signIn(fx.app, sam);
    const before = await (await b.request("/doctor")).text();
    expect(before).toContain('<span class="status warn">warn</span> <strong>Drops</strong>');
    expect(before).not.toContain("Doctor page");
    expect(before).toContain("Dismiss these drops");

    const forged = await b.request("/doctor/dismiss", { method: "POST", form: { csrf: "nope" } });
    expect(forged.status).toBe(403);
    const res = await b.request("/doctor/dismiss", {
      method: "POST",
      form: { csrf: formTokenIn(before), before: before.match(/name="before" value="([^"]+)"/)?.[1] ?? "" },
    });
    expect(res.status).toBe(303);
    const after = await (await b.request(res.headers.get("location") ?? "")).text();
    expect(after).toContain('data-part="notice">Dismissed 1 drop: they stay listed and no longer warn.');
    expect(after).toContain('<span class="status ok">ok</span> <strong>Drops</strong>');
    expect(after).toContain('data-part="drop-state">dismissed</span>');
    expect(after).not.toContain("Dismiss these drops");
  });
});
