import { createTestWorld, fullReceipt, minimalReceipt, openTestStore } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { createWebApp } from "../app.js";
import { useWeb } from "./helpers.js";

const tokenOf = (url: string) => url.split("/s/")[1] as string;

describe("share page", () => {
  const fx = useWeb();
  const page = async (path: string) => {
    const res = await fx.app.request(path);
    return { status: res.status, html: await res.text(), headers: res.headers };
  };

  it("shows the card once, in order, with the assertion header, and the details once", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const principal = await fx.world.cairn.authenticate(agent.token);
    if (!principal) throw new Error("no principal");
    const created = await fx.world.cairn.invoke("receipt_create", fx.world.cairn.context(principal, "mcp"), fullReceipt());
    const { status, html, headers } = await page(`/s/${tokenOf(created.url)}`);
    expect(status).toBe(200);
    expect(html).toContain(`Receipt asserted by claude · opus-5 for ${sam.name}, via MCP`);
    expect(html).not.toMatch(/verified/i);
    const order = [
      'data-field="changed"',
      'data-field="human_action"',
      'data-field="before"',
      'data-field="after"',
      'data-field="evidence"',
      'data-field="outcome.status"',
      'data-field="remaining"',
      'data-field="learned"',
      'data-field="details"',
    ];
    const positions = order.map((needle) => html.indexOf(needle));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).toContain('You need to do: <span data-field="human_action">Approve the retry budget');
    expect(html).toContain('<a href="https://ci.example.com/runs/4812" rel="noopener noreferrer"');
    // Shown once: the rendered body's headings are not repeated under the card.
    expect(html.split("Nightly export now retries failed uploads").length - 1).toBe(1);
    expect(html).not.toContain("What a human needs to do");
    expect(html.split("Export retries failed uploads").length - 1).toBe(2); // <title> and <h1>
    expect(html).toContain("Retries use exponential backoff");
    expect(headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).not.toMatch(/<script/i);
    const raw = await fx.app.request(`/s/${tokenOf(created.url)}/raw`);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await raw.text()).toBe(created.body);
  });

  it("warns when no evidence is linked, shows Nothing calmly, and renders backticks as code", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const { html } = await page(`/s/${tokenOf(created.url)}`);
    expect(html).toContain("No evidence linked");
    expect(html).toContain('<p class="chip calm" data-part="chip">You need to do: <span data-field="human_action">Nothing</span>');
    expect(html).toContain("via REST");
    const ticks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ human_action: "Run `make deploy` on prod" }));
    const chip = (await page(`/s/${tokenOf(ticks.url)}`)).html.match(/<p class="chip"[\s\S]*?<\/p>/)?.[0] ?? "";
    expect(chip).toContain("<code>make deploy</code>");
    expect(chip).not.toContain("`");
  });

  it("escapes user text everywhere: fields, title and markdown details", async () => {
    const sam = await fx.world.user("sam");
    const evil = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({
        title: `T ${evil}`,
        before: evil,
        details: `${evil}\n\n[click](javascript:alert(3))`,
        evidence: [{ label: evil, url: 'https://ok.example/"><script>' }],
      }),
    );
    const { html } = await page(`/s/${tokenOf(created.url)}`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("hides follows and produced-by from a link holder", async () => {
    const sam = await fx.world.user("sam");
    const first = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const second = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ follows: first.id, learned: "the follow-up" }));
    const { html } = await page(`/s/${tokenOf(second.url)}`);
    expect(html).not.toContain(first.id);
    expect(html).not.toContain('data-field="follows"');
  });

  it("answers 404 for an unknown link and 410 for an expired one, by the core's clock", async () => {
    expect((await page("/s/not-a-real-token")).status).toBe(404);
    let clock = new Date("2026-01-01T00:00:00Z");
    const timed = await createTestWorld(await openTestStore("pglite"), () => clock);
    try {
      const sam = await timed.user("sam");
      const created = await timed.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
      clock = new Date("2026-02-01T00:00:00Z");
      const res = await createWebApp(timed.cairn).request(`/s/${tokenOf(created.url)}`);
      expect(res.status).toBe(410);
      expect(await res.text()).toContain("Expired");
    } finally {
      await timed.cairn.close();
    }
  });
});
