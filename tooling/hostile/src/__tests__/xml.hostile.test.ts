import { DRIVERS, fullReceipt } from "@cairn/core/testing";
import { SaxesParser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, spawnServe } from "../serve.js";

/** Every C0 control the store keeps (NUL is refused at the door), and the two noncharacters XML 1.0 forbids. */
const C0 = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("");
const HOSTILE_TITLE = `Feed ${C0} title \uFFFE\uFFFF end`;

/** What XML 1.0 allows: tab, LF, CR and everything from U+0020, without the two noncharacters (no lone surrogates here). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const xmlAllowed = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");

/** A strict, conforming XML parser: any error (a forbidden character among them) throws; returns each element's text by name. */
function parseStrictly(xml: string): Map<string, string[]> {
  const parser = new SaxesParser({ xmlns: true });
  const texts = new Map<string, string[]>();
  const open: string[] = [];
  let failure: Error | undefined;
  parser.on("error", (err) => {
    failure ??= err;
  });
  parser.on("opentag", (tag) => {
    open.push(tag.local);
    texts.set(tag.local, [...(texts.get(tag.local) ?? []), ""]);
  });
  parser.on("closetag", () => {
    open.pop();
  });
  parser.on("text", (text) => {
    const name = open.at(-1);
    const list = name === undefined ? undefined : texts.get(name);
    if (list) list[list.length - 1] += text;
  });
  parser.write(xml).close();
  if (failure) throw failure;
  return texts;
}

describe.each(DRIVERS)("the Atom feed with every C0 control in a stored title, from a real `cairn serve` on %s", (driver) => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await spawnServe(driver);
  });
  afterAll(async () => s?.close());

  it("parses as XML with a strict parser, and the title keeps everything XML allows", async () => {
    const headers = { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" };
    const created = await fetch(`${s.url}/v1/receipts`, {
      method: "POST",
      headers,
      body: JSON.stringify(fullReceipt({ title: HOSTILE_TITLE, human_action: `Approve ${C0} it.`, learned: `xml ${driver}` })),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const stored = (await created.json()) as { title: string };
    // The store keeps the controls: the feed is where they must go.
    expect(stored.title).toContain("\u001b");
    const key = (await (await fetch(`${s.url}/v1/me/feed-key`, { method: "POST", headers })).json()) as { url: string };
    const feed = await fetch(key.url);
    expect(feed.status).toBe(200);
    const texts = parseStrictly(await feed.text());
    expect(texts.get("title")).toContain(xmlAllowed(stored.title));
    expect((texts.get("summary") ?? []).some((t) => t.includes("Approve") && t.includes("it."))).toBe(true);
  });
});
