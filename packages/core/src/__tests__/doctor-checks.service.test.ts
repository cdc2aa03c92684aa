import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { CairnError } from "../errors.js";
import { createLogger } from "../log.js";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, TEST_PUBLIC_URL } from "../testing/index.js";

const raise = (message: string): never => {
  throw new Error(message);
};

/** A store whose table `table` is gone (renamed away), so exactly the checks that read it cannot be made. */
async function worldWithout(driver: (typeof DRIVERS)[number], table: string) {
  const store = await openTestStore(driver);
  const lines: string[] = [];
  const world = await createTestWorld(store);
  const cairn = createCairn(store, { publicUrl: TEST_PUBLIC_URL }, { logger: createLogger({ write: (l) => void lines.push(l) }) });
  const sam = await world.user("sam");
  // A drop, on purpose: the fixture fails loudly if the refusal is anything else (or none).
  const refused = await world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })).then(
    () => raise("the fixture's receipt was accepted; it must be refused and leave a drop"),
    (err: unknown) => err,
  );
  if (!(refused instanceof CairnError) || refused.code !== "validation_failed" || !refused.drop) throw refused;
  await store.query(`alter table ${table} rename to ${table}_away`);
  const doctor = () => cairn.invoke("doctor", cairn.context(sam.principal, "rest"), {});
  return { store, lines, doctor };
}

describe.each(DRIVERS)("doctor's checks stand alone on %s", (driver) => {
  it("subscriptions unreadable: Webhooks fails alone, logged once; Drops and Inbox stand", async () => {
    const w = await worldWithout(driver, "subscriptions");
    try {
      const { checks } = await w.doctor();
      expect(checks.map((c) => [c.name, c.status])).toEqual([
        ["Database", "ok"],
        ["Drops", "warn"],
        ["Webhooks", "fail"],
        ["Inbox", "ok"],
        ["Notifications", "ok"],
      ]);
      expect(checks.find((c) => c.name === "Webhooks")?.summary).toBe("Could not read the subscriptions.");
      const logged = w.lines.filter((l) => l.includes("doctor_check_failed"));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain("check=Webhooks");
    } finally {
      await w.store.close();
    }
  });

  it("drop receipts unreadable: Drops fails (and Policy cannot be checked), logged once; Webhooks and Inbox stand", async () => {
    const w = await worldWithout(driver, "drops");
    try {
      const { checks } = await w.doctor();
      expect(checks.map((c) => [c.name, c.status])).toEqual([
        ["Database", "ok"],
        ["Drops", "fail"],
        ["Policy", "fail"],
        ["Webhooks", "ok"],
        ["Inbox", "ok"],
        ["Notifications", "ok"],
      ]);
      const logged = w.lines.filter((l) => l.includes("doctor_check_failed"));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain("check=Drops");
    } finally {
      await w.store.close();
    }
  });

  it("the inbox unreadable (its acknowledgements): Inbox fails alone, logged once", async () => {
    const w = await worldWithout(driver, "acknowledgements");
    try {
      const { checks } = await w.doctor();
      expect(checks.map((c) => [c.name, c.status])).toEqual([
        ["Database", "ok"],
        ["Drops", "warn"],
        ["Webhooks", "ok"],
        ["Inbox", "fail"],
        ["Notifications", "ok"],
      ]);
      expect(w.lines.filter((l) => l.includes("doctor_check_failed") && l.includes("check=Inbox"))).toHaveLength(1);
    } finally {
      await w.store.close();
    }
  });
});
