import { fullReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { useWeb } from "./helpers.js";

const pathOf = (url: string) => `/s/${url.split("/s/")[1] as string}`;

/** SPEC §29: an unchanged share page answers 304; any change to what it shows is a new validator. */
describe("share page revalidation", () => {
  let clock = Date.parse("2026-12-01T09:00:00Z");
  const fx = useWeb(() => new Date(clock));
  const get = (path: string, headers: Record<string, string> = {}) => fx.app.request(path, { headers });

  it("answers 304 to the validator it gave, with no body, and a full page to any other", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt());
    const first = await get(pathOf(created.url));
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    // Kept, but asked about every time: the card's state is live.
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const page = await first.text();

    const again = await get(pathOf(created.url), { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    // A list, and the weak form a proxy may have added, still match (RFC 9110 §13.1.2).
    expect((await get(pathOf(created.url), { "if-none-match": `"other", W/${etag}` })).status).toBe(304);

    const stale = await get(pathOf(created.url), { "if-none-match": '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(page);
  });

  it("gives a new validator once the card's live state changes: acknowledged, assigned, retained", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "live state" }));
    const path = pathOf(created.url);
    const etagNow = async () => (await get(path)).headers.get("etag") ?? "";
    const seen = new Set([await etagNow()]);

    await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: created.id, note: "Approved" });
    const afterAck = await get(path, { "if-none-match": [...seen][0] as string });
    expect(afterAck.status).toBe(200);
    expect(await afterAck.text()).toContain("acknowledged");
    seen.add(afterAck.headers.get("etag") ?? "");

    await fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: created.id, assignee: sam.name });
    seen.add(await etagNow());
    await fx.world.cairn.invoke("artifact_retain", sam.ctx(), { id: created.id });
    seen.add(await etagNow());
    expect(seen.size).toBe(4);
  });

  /** The share page's path of a receipt whose outcome is pending until `measureAt`, made at 09:00. */
  const pendingUntil = async (learned: string, measureAt: string) => {
    const sam = await fx.world.user("sam");
    clock = Date.parse("2026-12-01T09:00:00Z");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned, outcome: { status: "pending", measure_at: measureAt } }));
    return pathOf(created.url);
  };

  it("keeps its validator while time passes and nothing a link holder sees changes", async () => {
    const path = await pendingUntil("time passes", "2026-12-02T09:00:00Z");
    const before = (await get(path)).headers.get("etag") ?? "";
    clock = Date.parse("2026-12-01T10:00:00Z");
    // Nothing a link holder sees has changed: still the same page.
    expect((await get(path, { "if-none-match": before })).status).toBe(304);
  });

  it("gives a new validator when time alone turns a pending outcome overdue, and the page says so", async () => {
    const path = await pendingUntil("turns overdue", "2026-12-01T12:00:00Z");
    const upcoming = await get(path);
    expect(await upcoming.text()).not.toContain("Overdue");
    clock = Date.parse("2026-12-01T12:00:01Z");
    const overdue = await get(path, { "if-none-match": upcoming.headers.get("etag") ?? "" });
    expect(overdue.status).toBe(200);
    expect(overdue.headers.get("etag")).not.toBe(upcoming.headers.get("etag"));
    expect(await overdue.text()).toContain("Overdue");
  });

  it("keeps the JSON answer and the page apart", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "two forms" }));
    const html = await get(pathOf(created.url));
    const json = await get(pathOf(created.url), { accept: "application/json" });
    expect(json.headers.get("vary")).toContain("Accept");
    expect(json.headers.get("etag")).not.toBe(html.headers.get("etag"));
    expect((await get(pathOf(created.url), { accept: "application/json", "if-none-match": html.headers.get("etag") ?? "" })).status).toBe(200);
    expect(((await json.json()) as { id: string }).id).toBe(created.id);
  });
});
