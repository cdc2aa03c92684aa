import { describe } from "vitest";
import { coreLinkDriver, createTestWorld, DRIVERS, openTestStore } from "../testing/index.js";
import { runLinkRuleSuite } from "../testing/link-suite.js";

describe.each(DRIVERS)("tenancy and links through core on %s", (driver) => {
  runLinkRuleSuite("produced_by, follows and run access", async () => {
    const store = await openTestStore(driver);
    const world = await createTestWorld(store);
    return { world, driver: coreLinkDriver(world), close: () => store.close() };
  });
});
