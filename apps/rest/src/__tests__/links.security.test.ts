import { ADAPTER_DRIVERS } from "@cairn/core/testing";
import { runLinkRuleSuite } from "@cairn/core/testing/link-suite";
import { describe } from "vitest";
import { openRestHarness } from "./harness.js";
import { restLinkDriver } from "./rest-driver.js";

describe.each(ADAPTER_DRIVERS)("tenancy and links through REST on %s", (driver) => {
  runLinkRuleSuite("produced_by, follows and run access", async () => {
    const h = await openRestHarness(driver);
    return { world: h.world, driver: restLinkDriver(h), close: () => h.close() };
  });
});
