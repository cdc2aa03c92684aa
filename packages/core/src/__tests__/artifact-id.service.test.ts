import { describe, expect, it } from "vitest";
import { ARTIFACT_RESOURCE_PATTERN, artifactIdOfResourceUri, artifactResourceUri } from "../artifact/resource-uri.js";
import { ARTIFACT_ID, newId } from "../ids.js";
import { encodeCursor } from "../inbox/internal.js";
import { DRIVERS } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

// 26 characters, but with `u`, which Crockford base32 (and so newId) never writes.
const NOT_ISSUED = "art_01jd0000000000000000000u00";

describe("one artifact-id pattern", () => {
  it("matches what newId makes and nothing it could not make", () => {
    expect(NOT_ISSUED).toHaveLength(30);
    for (let i = 0; i < 100; i++) expect(newId("art")).toMatch(ARTIFACT_ID);
    expect(NOT_ISSUED).not.toMatch(ARTIFACT_ID);
    expect(new RegExp(ARTIFACT_RESOURCE_PATTERN).test(artifactResourceUri(newId("art")))).toBe(true);
    expect(artifactIdOfResourceUri(artifactResourceUri(NOT_ISSUED))).toBeNull();
  });
});

describe.each(DRIVERS)("the inbox's cursors take artifact ids of that one pattern on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a cursor naming an id the server never issued is refused like any forged cursor", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("inbox_list", sam.ctx(), { cursor: encodeCursor([NOT_ISSUED]) }));
    expect(err.issues).toEqual([{ field: "cursor", reason: "is not a cursor this server issued" }]);
    await expect(fx.world.cairn.invoke("inbox_list", sam.ctx(), { cursor: encodeCursor([newId("art")]) })).resolves.toMatchObject({ items: [] });
  });
});
