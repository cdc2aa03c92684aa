import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../cairn.js";
import { CairnError, httpStatusOf } from "../../errors.js";
import type { Store } from "../../store/port.js";
import { createTestWorld, DRIVERS, openTestStore, type TestWorld } from "../../testing/index.js";
import { CONFIRM_MAILS_PER_HOUR } from "../confirm-limit.js";

const MAIL = { smtpUrl: "smtp://127.0.0.1:9", from: "Cairn <cairn@example.com>" };

/** SPEC §37: a confirmation mail goes to one address at most a few times an hour, whoever asks. */
describe.each(DRIVERS)("confirmation mails to one address on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
  });
  afterAll(async () => store?.close());

  it(`mails one address ${CONFIRM_MAILS_PER_HOUR} times an hour at most, then answers 429 naming the limit; an hour later, again`, async () => {
    let now = new Date("2026-12-07T10:00:00Z");
    const cairn = createCairn(store, { publicUrl: "http://cairn.test", mail: MAIL }, () => now);
    const [sam, eve] = [await world.user("sam"), await world.user("eve")];
    const add = (who: typeof sam, target: string) =>
      cairn.invoke("channel_create", cairn.context(who.principal, "rest"), { kind: "email", target }).catch((e: unknown) => e);
    // Removing the channel and adding it again, or asking from another account, does not reset the count.
    for (let i = 0; i < CONFIRM_MAILS_PER_HOUR; i++) {
      const made = await add(i % 2 ? eve : sam, "victim@example.com");
      expect(made).toMatchObject({ kind: "email", state: "pending" });
      await cairn.invoke("channel_delete", cairn.context((i % 2 ? eve : sam).principal, "rest"), { id: (made as { id: string }).id });
      now = new Date(now.getTime() + 60_000);
    }
    const refused = await add(eve, "Victim@EXAMPLE.com");
    expect(refused).toBeInstanceOf(CairnError);
    const err = refused as CairnError;
    expect([err.code, httpStatusOf(err.code)]).toEqual(["rate_limited", 429]);
    expect(err.issues).toEqual([
      { field: "target", reason: expect.stringContaining(`${CONFIRM_MAILS_PER_HOUR} confirmation mails in the last hour`), limit: 3 },
    ]);
    expect(err.message).toContain("try again in 57 minutes");
    expect((await cairn.invoke("channel_list", cairn.context(eve.principal, "rest"), {})).items).toEqual([]); // nothing was added
    expect(await add(sam, "someone-else@example.com")).toMatchObject({ state: "pending" }); // another address is not limited
    now = new Date(now.getTime() + 3_600_000);
    expect(await add(eve, "victim@example.com")).toMatchObject({ state: "pending" });
  });
});
