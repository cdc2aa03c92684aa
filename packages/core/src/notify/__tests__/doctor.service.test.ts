import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../cairn.js";
import type { Store } from "../../store/port.js";
import { createTestWorld, DRIVERS, openTestStore, type TestWorld } from "../../testing/index.js";

const MAIL = { smtpUrl: "smtp://127.0.0.1:9", from: "Cairn <cairn@example.com>" };

/** Doctor's Notifications check (SPEC §27) over the caller's channels. */
describe.each(DRIVERS)("doctor's Notifications check on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
  });
  afterAll(async () => store?.close());

  it("is ok with no channel, and warns about email channels on a server with no mail configured", async () => {
    const sam = await world.user("sam");
    const check = async (mail: boolean) => {
      const cairn = createCairn(store, { publicUrl: "http://cairn.test", ...(mail && { mail: MAIL }) });
      const { checks } = await cairn.invoke("doctor", cairn.context(sam.principal, "rest"), {});
      return checks.find((c) => c.name === "Notifications");
    };
    expect(await check(true)).toMatchObject({ status: "ok" });
    const withMail = createCairn(store, { publicUrl: "http://cairn.test", mail: MAIL });
    const refused = await withMail
      .invoke("channel_create", world.cairn.context(sam.principal, "rest"), { kind: "email", target: "sam@example.com" })
      .catch((e) => e);
    expect(refused.code).toBe("validation_failed"); // world.cairn has no mail: a 422 saying so
    expect(refused.message).toContain("no mail configured");
    await withMail.invoke("channel_create", withMail.context(sam.principal, "rest"), { kind: "email", target: "sam@example.com" });
    expect(await check(true)).toMatchObject({ status: "ok" });
    const warned = await check(false);
    expect(warned).toMatchObject({ status: "warn" });
    expect(warned?.summary).toContain("no mail configured");
    expect(warned?.next_action).toContain("CAIRN_SMTP_URL");
  });
});
