import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionOf } from "../../__tests__/helpers.js";
import { type Cairn, createCairn } from "../../cairn.js";
import { CairnError } from "../../errors.js";
import { authenticate } from "../../identity/tokens.js";
import { migrate } from "../../store/migrate.js";
import { openPgStore } from "../../store/pg.js";
import type { Store } from "../../store/port.js";
import { TEST_PUBLIC_URL } from "../../testing/fixtures.js";
import { CONCURRENCY_DRIVERS, createTestDatabase, createTestWorld, minimalReceipt, type TestDatabase, type TestWorld } from "../../testing/index.js";

const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
};
const SERVER_DRIVERS = CONCURRENCY_DRIVERS.filter((d) => d !== "pglite");

/**
 * Two servers on one database, as two `cairn serve` processes are: each its own pool of
 * connections and its own core. Two people answer the same ask at the same moment, one
 * through each; exactly one answer stands and the other is told who chose what.
 */
describe.each(SERVER_DRIVERS)("two servers answering at once on %s", (driver) => {
  let db: TestDatabase;
  let stores: Store[] = [];
  let world: TestWorld;
  let other: Cairn;

  beforeAll(async () => {
    db = await createTestDatabase(driver);
    stores = [await openPgStore(db.databaseUrl as string), await openPgStore(db.databaseUrl as string)];
    await migrate(stores[0] as Store);
    world = await createTestWorld(stores[0] as Store);
    other = createCairn(stores[1] as Store, { publicUrl: TEST_PUBLIC_URL });
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await db?.dispose();
  });

  it("one answer wins, the other is 409 already_decided, one event", async () => {
    const sam = await world.user("sam");
    const ana = await world.user("ana");
    const team = await world.team([sam, ana]);
    const anaThere = await authenticate(stores[1] as Store, ana.token);
    if (!anaThere) throw new Error("ana did not authenticate on the second server");
    for (let round = 0; round < 8; round++) {
      const receipt = await world.cairn.invoke("receipt_create", sam.ctx(), {
        ...minimalReceipt({ learned: `race ${round}` }),
        human_action: "Approve?",
        owner: team,
        ask: ASK,
      });
      const answers = await Promise.allSettled([
        world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" }),
        other.invoke("artifact_decide", other.context(anaThere, "rest"), { id: receipt.id, option: "reject" }),
      ]);
      const won = answers.filter((a) => a.status === "fulfilled");
      const lost = answers.flatMap((a) => (a.status === "rejected" ? [a.reason] : []));
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]).toBeInstanceOf(CairnError);
      expect((lost[0] as CairnError).code).toBe("already_decided");
      const events = await (stores[0] as Store).query("select 1 from events where type = 'receipt.decided' and payload like $1", [`%${receipt.id}%`]);
      expect(events).toHaveLength(1);
      const read = await world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
      const winner = won[0]?.status === "fulfilled" ? won[0].value.decision : null;
      expect(read.decision).toEqual(winner);
      // The loser sending its own answer again is still refused: it is not the one that stands.
      const samWon = winner?.state === "decided" && winner.by.user === sam.name;
      const retry = samWon
        ? other.invoke("artifact_decide", other.context(anaThere, "rest"), { id: receipt.id, option: "reject" })
        : world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" });
      expect((await rejectionOf(retry)).code).toBe("already_decided");
    }
  });
});
