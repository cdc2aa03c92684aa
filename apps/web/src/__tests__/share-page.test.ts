import { createTestWorld, DRIVERS, fullReceipt, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import type { Store } from "@cairn/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebApp } from "../app.js";

const tokenOf = (url: string) => url.split("/s/")[1] as string;

describe.each(DRIVERS)("share page on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  let app: ReturnType<typeof createWebApp>;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
    app = createWebApp(world.cairn);
  });
  afterAll(async () => store?.close());

  async function page(path: string) {
    const res = await app.request(path);
    return { status: res.status, html: await res.text(), headers: res.headers };
  }

  it("shows the card in order, the assertion header and the rendered body", async () => {
    const sam = await world.user("sam");
    const agent = await world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const principal = await world.cairn.authenticate(agent.token);
    if (!principal) throw new Error("no principal");
    const created = await world.cairn.invoke("receipt_create", world.cairn.context(principal, "mcp"), fullReceipt());
    const { status, html, headers } = await page(`/s/${tokenOf(created.url)}`);
    expect(status).toBe(200);
    expect(html).toContain(`Receipt asserted by claude · opus-5 for ${sam.name}, via MCP`);
    expect(html).not.toMatch(/verified/i);
    const order = ['data-field="changed"', 'data-field="human_action"', 'data-field="before"', 'data-field="after"', 'data-field="evidence"', 'data-field="outcome.status"', 'data-field="remaining"', 'data-field="learned"', '<article class="body">'];
    const positions = order.map((needle) => html.indexOf(needle));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).toContain("You need to do: <span data-field=\"human_action\">Approve the retry budget");
    expect(html).toContain('<a href="https://ci.example.com/runs/4812" rel="noopener noreferrer"');
    expect(html).toContain("<h2>Details</h2>");
    expect(headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).not.toMatch(/<script/i);
  });

  it("warns when no evidence is linked and shows Nothing as the action", async () => {
    const sam = await world.user("sam");
    const created = await world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const { html } = await page(`/s/${tokenOf(created.url)}`);
    expect(html).toContain("No evidence linked");
    expect(html).toContain('You need to do: <span data-field="human_action">Nothing</span>');
    expect(html).toContain("via REST");
  });

  it("escapes user text everywhere: fields, title and markdown body", async () => {
    const sam = await world.user("sam");
    const evil = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    const created = await world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({ title: `T ${evil}`, before: evil, details: `${evil}\n\n[click](javascript:alert(3))`, evidence: [{ label: evil, url: "https://ok.example/\"><script>" }] }),
    );
    const { html } = await page(`/s/${tokenOf(created.url)}`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("answers 404 for an unknown link and 410 for an expired one", async () => {
    expect((await page("/s/not-a-real-token")).status).toBe(404);
    let clock = new Date("2026-01-01T00:00:00Z");
    const timed = await createTestWorld(await openTestStore(driver), () => clock);
    try {
      const sam = await timed.user("sam");
      const created = await timed.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
      clock = new Date("2026-02-01T00:00:00Z");
      const res = await createWebApp(timed.cairn).request(`/s/${tokenOf(created.url)}`);
      expect(res.status).toBe(410);
    } finally {
      await timed.cairn.close();
    }
  });
});
