/// <reference lib="dom" />
import { existsSync, mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const CHROMIUM = process.env.CAIRN_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = join(import.meta.dirname, "../../screenshots");

/** The luminance contrast of two CSS rgb() colours (WCAG 2). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("/docs, the API reference people read", () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness("pglite");
  });
  afterAll(async () => h?.close());

  it("links back to the app (SPEC §22)", async () => {
    const res = await h.call("GET", "/docs");
    expect(res.text).toMatch(/<nav aria-label="Cairn"><a href="\/">← Back to Cairn<\/a>/);
  });

  it("has a table of contents, every route, the nested receipt shape with its enums, examples and the auth note", async () => {
    const res = await h.call("GET", "/docs");
    expect(res.status).toBe(200);
    const doc = (await h.call("GET", "/openapi.json")).json;
    for (const methods of Object.values(doc.paths) as Array<Record<string, { operationId: string }>>) {
      for (const op of Object.values(methods)) {
        expect(res.text).toContain(`href="#${op.operationId}"`);
        expect(res.text).toContain(`id="${op.operationId}"`);
      }
    }
    for (const shown of [
      "Approve the retry budget",
      "outcome.status",
      "not_applicable",
      "outcome.measure_at",
      "evidence[].url",
      "remaining[].owner",
      "Example request",
      "Authorization: Bearer",
    ]) {
      expect(res.text, shown).toContain(shown);
    }
    expect(res.text, "descriptions show code, not backticks").not.toContain("`");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("unsafe-inline");
  });

  describe("in a browser", () => {
    let browser: Browser | undefined;
    let url = "";
    let close: () => void = () => {};
    beforeAll(async () => {
      const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
      await new Promise((r) => server.once("listening", r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`;
      close = () => server.close();
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
      if (!existsSync(SHOTS)) mkdirSync(SHOTS, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      close();
    });

    for (const scheme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        it(`reads well at ${width} px in ${scheme}: no sideways scroll, readable text, no CSP or console errors`, async () => {
          const page = await (browser as Browser).newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
          const errors: string[] = [];
          page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
          page.on("pageerror", (e) => errors.push(e.message));
          await page.goto(url);
          const m = await page.evaluate(() => {
            const body = getComputedStyle(document.body);
            const code = getComputedStyle(document.querySelector("code") as Element);
            return { scroll: document.documentElement.scrollWidth, fg: body.color, bg: body.backgroundColor, codeFg: code.color, codeBg: code.backgroundColor };
          });
          expect(m.scroll).toBeLessThanOrEqual(width);
          expect(contrast(m.fg, m.bg)).toBeGreaterThanOrEqual(4.5);
          expect(contrast(m.codeFg, m.codeBg)).toBeGreaterThanOrEqual(4.5);
          if (scheme === "dark") expect(contrast(m.bg, "rgb(0, 0, 0)")).toBeLessThan(2);
          expect(await page.getByRole("navigation", { name: "Endpoints" }).getByRole("link").first().isVisible()).toBe(true);
          expect(errors).toEqual([]);
          await page.screenshot({ path: join(SHOTS, `docs-${width}-${scheme}.png`) });
          await page
            .locator("#receipt_create details")
            .first()
            .evaluate((d) => d.setAttribute("open", ""));
          await page.locator("#receipt_create").screenshot({ path: join(SHOTS, `docs-receipt-${width}-${scheme}.png`) });
          await page.close();
        });
      }
    }
  });
});
