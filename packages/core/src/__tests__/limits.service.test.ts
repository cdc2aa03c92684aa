import { describe, expect, it } from "vitest";
import { WITHHELD_FIELD } from "../drops/record.js";
import { LIMITS } from "../limits.js";
import { PLANTED } from "../secrets/__tests__/planted.js";
import { DRIVERS, fullReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const withKeys = (n: number, name: (i: number) => string) => ({
  ...fullReceipt(),
  ...Object.fromEntries(Array.from({ length: n }, (_, i) => [name(i), i])),
});

describe.each(DRIVERS)("LIMITS.issuesReported: unknown-field paths are capped in errors and drops, on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("20k unknown keys: 20 paths then `…and 19980 more`, in the error and in the drop", async () => {
    const sam = await fx.world.user("keys");
    const err = await rejectionOf(
      fx.world.cairn.invoke(
        "receipt_create",
        sam.ctx(),
        withKeys(20_000, (i) => `extra_${i}`),
      ),
    );
    expect(err.issues).toHaveLength(LIMITS.issuesReported + 1);
    expect(err.issues?.[0]).toEqual({ field: "extra_0", reason: "is not a known field" });
    expect(err.issues?.at(-1)?.field).toBe("…and 19980 more");
    expect(err.message).toBe("extra_0: is not a known field (and 19999 more)");
    const [drop] = (await fx.world.cairn.invoke("drops_list", sam.ctx(), {})).items;
    expect(drop?.id).toBe(err.drop?.id);
    expect(drop?.fields).toHaveLength(LIMITS.issuesReported + 1);
    expect(drop?.fields.at(-1)).toBe("…and 19980 more");
  });

  it("unknown key names that are not shaped like field names are withheld from the drop, never scanned", async () => {
    const sam = await fx.world.user("secretkeys");
    const started = performance.now();
    const err = await rejectionOf(
      fx.world.cairn.invoke(
        "receipt_create",
        sam.ctx(),
        withKeys(20_000, (i) => `ghp_${String(i).padStart(8, "0")}${PLANTED.ghp.slice(4, 32)}`),
      ),
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err.drop?.fields).toEqual([WITHHELD_FIELD, "…and 19979 more"]);
    expect(JSON.stringify(err.drop)).not.toContain("ghp_");
  });

  it("a key the caller chose is cut at LIMITS.fieldPathSegment and made storable in the error", async () => {
    const sam = await fx.world.user("longkey");
    const key = `${"k".repeat(LIMITS.fieldPathSegment + 50)}\u0000`;
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...fullReceipt(), [key]: 1 }));
    expect(err.issues?.[0]?.field).toBe(`${"k".repeat(LIMITS.fieldPathSegment)}…`);
    expect(err.drop?.id).toBeDefined();
  });
});
