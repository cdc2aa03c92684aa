import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { receiptCardOf } from "@cairn/core";
import { RENDERING_FIXTURES, RENDERING_NOW } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { receiptCard } from "../pages/card.js";

const GOLDEN = join(import.meta.dirname, "__golden__");

/**
 * The web card of each rendering fixture, as bytes (SPEC §25: one view, every rendering).
 * Its siblings — the MCP App's data, the A2UI messages and the event — are golden in
 * core (view/__tests__/renderings.test.ts) over the same fixtures: a change to the view
 * changes them together (UPDATE_GOLDEN=1 on both), or fails.
 */
describe.each(Object.keys(RENDERING_FIXTURES))("the web card of the %s receipt", (name) => {
  it("matches its golden HTML", async () => {
    const card = receiptCardOf(RENDERING_FIXTURES[name] as never, RENDERING_NOW);
    if (!card) throw new Error("not a receipt");
    const actual = `${String(await receiptCard(card))}\n`;
    const file = join(GOLDEN, `${name}.card.html`);
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, actual);
    }
    expect(actual).toBe(readFileSync(file, "utf8"));
  });
});
