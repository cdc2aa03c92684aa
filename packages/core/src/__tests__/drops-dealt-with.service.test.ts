import { describe, expect, it } from "vitest";
import { authenticate } from "../identity/tokens.js";
import type { TestUser } from "../testing/index.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** A clock the test moves: a receipt stored "after" a drop is stored a minute later, not in the same millisecond. */
let clock = new Date("2026-12-01T09:00:00.000Z");
const tick = () => {
  clock = new Date(clock.getTime() + 60_000);
};

describe.each(DRIVERS)("drops that were dealt with stop warning (SPEC §24) on %s", (driver) => {
  const fx = useTestWorld(driver, () => clock);

  async function agentOf(user: TestUser, name = "claude") {
    const created = await fx.world.cairn.invoke("token_create", user.ctx(), { name, kind: "agent" });
    const principal = await authenticate(fx.store, created.token);
    if (!principal) throw new Error("no principal");
    return { ctx: () => fx.world.cairn.context(principal, "rest") };
  }

  const dropsCheck = async (user: TestUser) => (await fx.world.cairn.invoke("doctor", user.ctx(), {})).checks.find((c) => c.name === "Drops");

  it("a drop, then an accepted receipt from the same token for the same owner: resolved, doctor's Drops ok", async () => {
    const sam = await fx.world.user("sam");
    const claude = await agentOf(sam);
    const other = await agentOf(sam, "script");
    await rejectionOf(fx.world.cairn.invoke("receipt_create", claude.ctx(), minimalReceipt({ learned: "" })));
    tick();
    expect((await dropsCheck(sam))?.status).toBe("warn");
    // Another token's receipt does not fix this token's input.
    await fx.world.cairn.invoke("receipt_create", other.ctx(), minimalReceipt({ learned: "someone else" }));
    tick();
    expect((await dropsCheck(sam))?.status).toBe("warn");
    await fx.world.cairn.invoke("receipt_create", claude.ctx(), minimalReceipt({ learned: "fixed" }));
    tick();
    const check = await dropsCheck(sam);
    expect(check?.status).toBe("ok");
    expect(check?.summary).toContain("1 invalid");
    const listed = await fx.world.cairn.invoke("drops_list", sam.ctx(), {});
    expect(listed.items.map((d) => d.state)).toEqual(["resolved"]);
  });

  it("a person dismisses the drops up to a time: they stay listed as dismissed, doctor's Drops ok; a later drop warns again; agents may not", async () => {
    const sam = await fx.world.user("sam");
    const claude = await agentOf(sam);
    await rejectionOf(fx.world.cairn.invoke("receipt_create", claude.ctx(), minimalReceipt({ learned: "" })));
    tick();
    await rejectionOf(fx.world.cairn.invoke("receipt_create", claude.ctx(), minimalReceipt({ learned: "" })));
    tick();
    const refused = await rejectionOf(fx.world.cairn.invoke("drops_dismiss", claude.ctx(), {}));
    expect(refused.code).toBe("forbidden");
    const warn = await dropsCheck(sam);
    expect(warn?.status).toBe("warn");
    expect(warn?.next_action).toContain("POST /v1/drops/dismiss");

    const answer = await fx.world.cairn.invoke("drops_dismiss", sam.ctx(), {});
    expect(answer).toEqual({ dismissed: 2, before: clock.toISOString() });
    expect((await dropsCheck(sam))?.status).toBe("ok");
    expect((await fx.world.cairn.invoke("drops_list", sam.ctx(), {})).items.map((d) => d.state)).toEqual(["dismissed", "dismissed"]);
    // Once: nothing more to dismiss.
    expect((await fx.world.cairn.invoke("drops_dismiss", sam.ctx(), {})).dismissed).toBe(0);

    tick();
    await rejectionOf(fx.world.cairn.invoke("receipt_create", claude.ctx(), minimalReceipt({ learned: "" })));
    expect((await dropsCheck(sam))?.status).toBe("warn");
    // `before` leaves the newer one open.
    expect((await fx.world.cairn.invoke("drops_dismiss", sam.ctx(), { before: "2026-01-01" })).dismissed).toBe(0);
    expect((await dropsCheck(sam))?.status).toBe("warn");
  });

  it("the web's doctor never sends its reader to the Doctor page", async () => {
    const sam = await fx.world.user("sam");
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })));
    tick();
    const web = (await fx.world.cairn.invoke("doctor", sam.ctx("web"), {})).checks.find((c) => c.name === "Drops");
    expect(web?.status).toBe("warn");
    expect(web?.next_action).not.toContain("Doctor page");
    expect(web?.next_action).toContain("Dismiss them below");
  });
});
