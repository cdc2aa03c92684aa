import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { basicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";
import { describe, expect, it } from "vitest";
import { artifactFacts } from "../../artifact/facts.js";
import { artifactCreatedData } from "../../events/artifact-event.js";
import { processA2ui } from "../../testing/a2ui.js";
import { RENDERING_FIXTURES, RENDERING_NOW, RENDERING_PUBLIC_URL, renderingRowOf } from "../../testing/renderings.js";
import { A2UI_COMPONENTS, receiptA2uiMessages } from "../a2ui.js";
import type { AskView } from "../decision.js";
import { receiptRenderViewOf } from "../receipt-app.js";

const GOLDEN = join(import.meta.dirname, "__golden__");
const matchesGolden = (name: string, value: unknown) => {
  const actual = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(join(GOLDEN, name), actual);
  }
  expect(actual, `${name} changed; if on purpose, UPDATE_GOLDEN=1 and commit every rendering's golden together`).toBe(readFileSync(join(GOLDEN, name), "utf8"));
};

const viewOf = (name: string) => {
  const view = receiptRenderViewOf(RENDERING_FIXTURES[name] as never, RENDERING_PUBLIC_URL, RENDERING_NOW);
  if (!view) throw new Error(`${name} is not a receipt`);
  return view;
};

/**
 * One view, every rendering (SPEC §25). Each rendering of each fixture is a golden file:
 * the MCP App's data (`*.app.json`), the A2UI messages (`*.a2ui.json`), the event's data
 * (`*.event.json`), and the facts `cairn read` prints above the stored body
 * (`*.cli-read.json`); the web card's is in apps/web (card-golden.test.ts).
 */
const RENDERINGS: Record<string, (name: string) => unknown> = {
  "app.json": (name) => viewOf(name),
  "a2ui.json": (name) => receiptA2uiMessages(viewOf(name)),
  "cli-read.json": (name) => artifactFacts(RENDERING_FIXTURES[name] as never, RENDERING_NOW),
  "event.json": (name) => artifactCreatedData({ publicUrl: RENDERING_PUBLIC_URL }, renderingRowOf(RENDERING_FIXTURES[name] as never)),
};

/** What a card shows of an ask, in order: the options and the deadline while open, then the decision and its comment. */
function askWords(ask: AskView | null): string[] {
  if (ask === null) return [];
  if (ask.decision !== null) return [ask.decision, ...(ask.comment ? [`${ask.comment.label}: ${ask.comment.text}`] : [])];
  return [ask.options.label, ...ask.options.items.map((o) => o.label), ...(ask.answer_by ? [`${ask.answer_by.label} ${ask.answer_by.text}`] : [])];
}

describe.each(Object.keys(RENDERING_FIXTURES))("the %s receipt, rendered every way", (name) => {
  it.each(Object.keys(RENDERINGS))(`matches its golden %s`, (kind) => {
    matchesGolden(`${name}.${kind}`, RENDERINGS[kind]?.(name));
  });

  it("renders twice to the same bytes", () => {
    for (const render of Object.values(RENDERINGS)) expect(JSON.stringify(render(name))).toBe(JSON.stringify(render(name)));
  });

  it("A2UI: the messages parse and process with @a2ui/web_core's basic catalog, and show the card's words in its order", () => {
    const view = viewOf(name);
    const messages = receiptA2uiMessages(view);
    expect(messages.map((m) => Object.keys(m)[1])).toEqual(["createSurface", "updateComponents", "updateDataModel"]);
    const surface = processA2ui(messages);
    for (const { component } of surface.components.values()) expect(A2UI_COMPONENTS).toContain(component);
    for (const component of A2UI_COMPONENTS) expect(basicCatalog.components.has(component)).toBe(true);
    const texts = surface.texts();
    const { card } = view;
    const order = [
      card.header,
      card.tldr.text,
      `${card.action.label}: ${card.action.text}`,
      ...askWords(card.ask),
      card.affected.text,
      card.before.text,
      card.after.text,
      card.evidence.label,
      card.evidence.empty ?? card.evidence.links[0]?.label,
      card.outcome.status.text,
      card.remaining.label,
      card.remaining.empty ?? `${card.remaining.items[0]?.item} — ${card.remaining.items[0]?.owner}`,
      card.learned.text,
      "Open the receipt",
    ];
    const at = order.map((text) => texts.findIndex((t) => t === text || t.startsWith(`${text}`)));
    expect(
      at.every((i) => i >= 0),
      `missing: ${order.filter((_, i) => at[i] === -1).join(" | ")}`,
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(texts.join("\n").toLowerCase()).not.toContain("verified");
    // Every button opens the receipt's page or an evidence link; nothing writes.
    for (const c of surface.components.values()) {
      if (c.component !== "Button") continue;
      expect((c.properties.action as { functionCall: { call: string } }).functionCall.call).toBe("openUrl");
    }
  });

  it("the MCP App's data and the A2UI messages say the same words as the card", () => {
    const view = viewOf(name);
    const a2ui = JSON.stringify(receiptA2uiMessages(view));
    for (const text of [view.card.tldr.text, view.card.before.text, view.card.after.text, view.card.learned.text, view.card.header]) {
      expect(a2ui).toContain(JSON.stringify(text).slice(1, -1));
    }
  });
});

describe("the A2UI checker itself", () => {
  it("refuses a component the basic catalog does not have, and a Text without text", () => {
    const [create, components] = receiptA2uiMessages(viewOf("minimal")) as [unknown, { updateComponents: { components: Array<Record<string, unknown>> } }];
    const renamed = structuredClone(components);
    (renamed.updateComponents.components[1] as Record<string, unknown>).component = "Marquee";
    expect(() => processA2ui([create, renamed])).toThrow(/Marquee/);
    const textless = structuredClone(components);
    const text = textless.updateComponents.components.find((c) => c.component === "Text") as Record<string, unknown>;
    delete text.text;
    expect(() => processA2ui([create, textless])).toThrow();
  });
});
