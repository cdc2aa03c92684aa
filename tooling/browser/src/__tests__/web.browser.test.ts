import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contrastOf, launchBrowser, startHostileSite, startWebServer } from "../env.js";
import { LONG_WORD, type Seeded, seed } from "../seed.js";

/** Kept as CI output (gitignored): every page type at desktop and phone width, light and dark. */
const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));
const WIDTHS = [1280, 390] as const;
const SCHEMES = ["light", "dark"] as const;

interface Visit {
  status: number | undefined;
  problems: string[];
}

/** Opens a page and records what must never happen there: console errors, page errors, dialogs. */
async function visit(page: Page, url: string): Promise<Visit> {
  const problems: string[] = [];
  // The document's own status (a 404 page) is the answer under test, not a fault of the page.
  page.on("console", (m) => m.type() === "error" && m.location().url !== url && problems.push(`console: ${m.text()} (${m.location().url})`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const response = await page.goto(url);
  await page.waitForLoadState("load");
  return { status: response?.status(), problems };
}

async function signInThroughTheForm(context: BrowserContext, base: string, token: string): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/`);
  } finally {
    await page.close();
  }
}

describe("the web in Chromium", () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let data: Seeded;
  let sam: Awaited<ReturnType<typeof launchBrowser>>;
  let eve: Awaited<ReturnType<typeof launchBrowser>>;
  let base: string;

  beforeAll(async () => {
    env = await startWebServer();
    base = env.server.url;
    data = await seed(base, env.adminToken);
    sam = await launchBrowser();
    eve = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await sam?.close();
    await eve?.close();
    await env?.close();
  });

  it("signs in with a token through the form (the form token holds under no-referrer)", async () => {
    await signInThroughTheForm(sam.context, base, data.sam.token);
    const page = await sam.context.newPage();
    const v = await visit(page, `${base}/`);
    expect(v.status).toBe(200);
    expect(await page.getByText(`Signed in as ${data.sam.name}`).isVisible()).toBe(true);
    expect(await page.locator("main h1").textContent()).toBe("Bin");
    expect(v.problems).toEqual([]);
    await page.close();
  });

  it("browses the bin newest first and filters it by text and tag", async () => {
    const page = await sam.context.newPage();
    await visit(page, `${base}/`);
    const titles = await page.locator(".rows .title").allTextContents();
    expect(titles).toEqual(["Export retries failed uploads", "Rotated the staging database password", "Runbook: rotating the export credentials"]);
    await page.getByLabel("Search").fill("retries");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=retries/);
    expect(await page.locator(".rows .title").allTextContents()).toEqual(["Export retries failed uploads"]);
    await visit(page, `${base}/?tag=staging`);
    expect(await page.locator(".rows .title").allTextContents()).toEqual(["Rotated the staging database password"]);
    const row = await page.locator(".rows li").first().textContent();
    expect(row).toContain("You need to do: Nothing");
    expect(row).toContain("Not applicable");
    expect(row).toContain(`user:${data.sam.name}`);
    expect(row).toMatch(/just now|minute/);
    await page.close();
  });

  it("shows the card in SPEC order, once, and links the run that produced it", async () => {
    const page = await sam.context.newPage();
    const v = await visit(page, `${base}/a/${data.full.id}`);
    expect(v.status).toBe(200);
    const fields = await page.$$eval("[data-field]", (nodes) => nodes.map((n) => n.getAttribute("data-field")));
    const order = [
      "assertion",
      "title",
      "changed",
      "human_action",
      "before",
      "after",
      "evidence",
      "outcome.status",
      "remaining",
      "learned",
      "details",
      "checksum",
    ];
    const positions = order.map((f) => fields.indexOf(f));
    expect(
      positions.every((p) => p >= 0),
      JSON.stringify(fields),
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(await page.locator('[data-field="assertion"]').textContent()).toBe(
      `Receipt asserted by sam for ${data.sam.name}, via REST`.replace("sam for", "initial · opus-5 for"),
    );
    expect(await page.locator("body").textContent()).not.toMatch(/verified/i);
    expect(await page.locator(".chip").textContent()).not.toContain("`");
    expect(await page.locator(".chip code").textContent()).toBe("#finance-ops");
    expect(await page.getByText("Nightly export now retries failed uploads").count()).toBe(1);
    expect(await page.locator('a[href^="https://ci.example.com"]').getAttribute("rel")).toBe("noopener noreferrer");
    await page.getByRole("link", { name: "run nightly-export" }).click();
    await page.waitForURL(`${base}/runs/${data.run.id}`);
    expect(await page.locator("ol.tree .span").count()).toBe(4);
    await page.getByRole("link", { name: "Export retries failed uploads" }).click();
    await page.waitForURL(`${base}/a/${data.full.id}`);
    await page.getByRole("link", { name: "View the raw markdown" }).click();
    expect(await page.locator("body").textContent()).toContain("## What a human needs to do");
    expect(v.problems).toEqual([]);
    await page.close();
  });

  it("keeps the action chip readable: contrast of at least 4.5:1 in light and dark", async () => {
    const page = await sam.context.newPage();
    const ratios: Record<string, number> = {};
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of [
        ["needed", `/a/${data.full.id}`],
        ["nothing", `/a/${data.minimal.id}`],
      ] as const) {
        await visit(page, `${base}${path}`);
        const { color, background } = await page.locator(".chip").evaluate((el) => {
          const s = getComputedStyle(el);
          return { color: s.color, background: s.backgroundColor };
        });
        ratios[`${name} ${scheme}`] = contrastOf(color, background);
      }
    }
    console.log("chip contrast:", JSON.stringify(ratios));
    for (const [k, r] of Object.entries(ratios)) expect(r, k).toBeGreaterThanOrEqual(4.5);
    await page.close();
  });

  it("every page type: no console errors or dialogs, no sideways scroll at 390 px, nothing serious for axe; screenshots", async () => {
    const signedOut = await launchBrowser();
    try {
      const pages: Array<{ name: string; context: BrowserContext; path: string }> = [
        { name: "signin", context: signedOut.context, path: "/signin" },
        { name: "share", context: signedOut.context, path: `/s/${data.full.url.split("/s/")[1]}` },
        { name: "bin", context: sam.context, path: "/" },
        { name: "bin-filtered", context: sam.context, path: "/?q=export" },
        { name: "artifact", context: sam.context, path: `/a/${data.full.id}` },
        { name: "artifact-minimal", context: sam.context, path: `/a/${data.minimal.id}` },
        { name: "artifact-plain", context: sam.context, path: `/a/${data.plain.id}` },
        { name: "run", context: sam.context, path: `/runs/${data.run.id}` },
        { name: "runs", context: sam.context, path: "/runs" },
        { name: "run-traced", context: sam.context, path: `/runs/${data.traced.id}` },
        { name: "doctor", context: sam.context, path: "/doctor" },
        { name: "inbox", context: sam.context, path: "/inbox" },
        { name: "not-found", context: sam.context, path: "/a/art_00000000000000000000000000" },
      ];
      const report: string[] = [];
      for (const p of pages) {
        for (const width of WIDTHS) {
          for (const scheme of SCHEMES) {
            const started = performance.now();
            const page = await p.context.newPage();
            await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
            await page.emulateMedia({ colorScheme: scheme });
            const v = await visit(page, `${base}${p.path}`);
            const where = `${p.name} ${width} ${scheme}`;
            expect(v.status, where).toBe(p.name === "not-found" ? 404 : 200);
            const scroll = await page.evaluate(() => ({
              scroll: document.documentElement.scrollWidth,
              viewport: window.innerWidth,
              height: document.documentElement.scrollHeight,
            }));
            expect(scroll.scroll, `${where}: scroll width`).toBeLessThanOrEqual(scroll.viewport);
            // axe on two of the four: both schemes (colours) and both widths (layout) are covered.
            if ((width === 1280) === (scheme === "light")) {
              const axe = await new AxeBuilder({ page }).analyze();
              const serious = axe.violations.filter((x) => x.impact === "serious" || x.impact === "critical");
              expect(
                serious.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`),
                where,
              ).toEqual([]);
            }
            expect(v.problems, where).toEqual([]);
            await page.screenshot({ path: join(SCREENSHOTS, `${p.name}-${width}-${scheme}.png`), fullPage: true });
            report.push(`${where}: ${scroll.height}px tall, ${Math.round(performance.now() - started)} ms`);
            await page.close();
          }
        }
      }
      console.log(`screenshots in ${SCREENSHOTS}\n${report.join("\n")}`);
    } finally {
      await signedOut.close();
    }
  }, 300_000);

  it("lists runs and shows a traced run's span status and attributes, escaped, a long value folded", async () => {
    const page = await sam.context.newPage();
    const list = await visit(page, `${base}/runs`);
    expect(list.status).toBe(200);
    const names = await page.locator("ol.rows .title").allTextContents();
    expect(names).toEqual(["travel-planner", "nightly-export"]);
    const first = page.locator("ol.rows li").first();
    expect(await first.locator(".pill").textContent()).toBe("Ended · 1 error");
    await expect.poll(() => first.textContent()).toContain("3 spans");
    expect(await first.textContent()).toContain("5,120 input · 642 output tokens");
    // The error filter keeps the failed run only.
    await page.getByLabel("Errors").selectOption("true");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/error=true/);
    expect(await page.locator("ol.rows .title").allTextContents()).toEqual(["travel-planner"]);
    await page.getByRole("link", { name: "travel-planner" }).click();
    await page.waitForURL(`${base}/runs/${data.traced.id}`);
    expect(await page.locator("section.totals").textContent()).toContain("5,120 input · 642 output");
    // Spans as a tree: the tool calls sit in the root's open <details>.
    const under = page.locator("details.children", { has: page.locator("summary", { hasText: "2 spans under invoke_agent travel-planner" }) });
    expect(await under.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const hotel = under.locator(".span", { hasText: "execute_tool book_hotel" });
    expect(await hotel.locator(".pill").textContent()).toBe("Error: No rooms left under 150 EUR");
    expect(await under.locator(".span", { hasText: "search_trains" }).locator(".pill").textContent()).toBe("OK");
    // Markup in an attribute is text, never a script.
    expect(await hotel.locator("dd").filter({ hasText: "<script>" }).textContent()).toBe("<script>alert('not run')</script> stays text");
    expect(await page.locator("script").count()).toBe(0);
    // Attributes are folded; the long gen_ai.input.messages is folded again behind its first characters.
    const root = page.locator("ol.tree .span", { hasText: "invoke_agent travel-planner" }).first();
    await root.locator("details.attrs-fold > summary").click();
    const folded = root.locator("dl.attrs details", { has: page.locator("summary", { hasText: '[{"role":"system"' }) });
    expect(await folded.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await folded.locator("summary").click();
    expect(await folded.locator("pre").textContent()).toContain("Keep it simple. Keep it simple.");
    expect(await page.locator("section.totals").textContent()).toContain("4bf92f3577b34da6a3ce929d0e0e4736");
    await page.close();
    const other = await launchBrowser();
    try {
      await signInThroughTheForm(other.context, base, data.eve.token);
      const outsider = await other.context.newPage();
      expect((await visit(outsider, `${base}/runs/${data.traced.id}`)).status).toBe(404);
      await visit(outsider, `${base}/runs`);
      expect(await outsider.locator("ol.rows li").count()).toBe(0);
      expect(await outsider.textContent("main")).toContain("No runs yet");
    } finally {
      await other.close();
    }
  });

  it("acknowledges from the inbox; the acknowledgement shows under the chip", async () => {
    const page = await sam.context.newPage();
    const v = await visit(page, `${base}/inbox`);
    expect(await page.locator(".rows .title").allTextContents()).toEqual(["Export retries failed uploads"]);
    await page.getByLabel("Note (optional)").fill("Approved in #finance-ops");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await page.waitForURL(`${base}/inbox?state=open&done=acknowledged`);
    expect(await page.locator(".rows").count()).toBe(0);
    await visit(page, `${base}/a/${data.full.id}`);
    expect(await page.locator(".acks").textContent()).toContain(`${data.sam.name} acknowledged`);
    expect(await page.getByRole("button", { name: "Acknowledge" }).count()).toBe(0);
    for (const [width, scheme] of [
      [1280, "light"],
      [390, "dark"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOTS, `artifact-acknowledged-${width}-${scheme}.png`), fullPage: true });
    }
    expect(v.problems).toEqual([]);
    await page.close();
  });

  it("sends the security headers on every page type, /docs included", async () => {
    const paths = ["/signin", "/docs", `/s/${data.full.url.split("/s/")[1]}`, "/", "/inbox", "/doctor", `/a/${data.full.id}`, "/assets/cairn.css"];
    for (const path of paths) {
      const res = await fetch(`${base}${path}`, { redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
    }
    const root = await fetch(`${base}/`, { redirect: "manual" });
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toBe("/signin");
  });

  it("wraps a long unbroken word on a phone", async () => {
    const page = await sam.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, `${base}/a/${data.full.id}`);
    expect(await page.getByText(LONG_WORD, { exact: false }).count()).toBeGreaterThan(0);
    const { scroll, viewport } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(scroll).toBeLessThanOrEqual(viewport);
    await page.close();
  });

  it("gives an outsider's session a 404 for another owner's artifact and run", async () => {
    await signInThroughTheForm(eve.context, base, data.eve.token);
    const page = await eve.context.newPage();
    const artifact = await visit(page, `${base}/a/${data.full.id}`);
    expect(artifact.status).toBe(404);
    expect(await page.locator("body").textContent()).not.toContain("Export retries failed uploads");
    expect((await visit(page, `${base}/runs/${data.run.id}`)).status).toBe(404);
    expect((await visit(page, `${base}/`)).status).toBe(200);
    expect(await page.locator(".rows").count()).toBe(0);
    await page.close();
  });

  it("refuses a cross-site form post (sign-out and sign-in) and keeps the session", async () => {
    const hostile = await startHostileSite(base);
    const page = await sam.context.newPage();
    try {
      await page.goto(hostile.url);
      const [signout] = await Promise.all([page.waitForResponse(`${base}/signout`), page.click("#signout")]);
      expect(signout.status()).toBe(403);
      await page.goto(hostile.url);
      const [signin] = await Promise.all([page.waitForResponse(`${base}/signin`), page.click("#signin")]);
      expect(signin.status()).toBe(403);
      const check = await visit(page, `${base}/`);
      expect(check.status).toBe(200);
      expect(new URL(page.url()).pathname).toBe("/");
    } finally {
      await page.close();
      await hostile.close();
    }
  });

  it("works with JavaScript off: sign in, filter, open a receipt", async () => {
    const noScript = await launchBrowser({ javaScript: false });
    try {
      await signInThroughTheForm(noScript.context, base, data.sam.token);
      const page = await noScript.context.newPage();
      await visit(page, `${base}/`);
      await page.getByLabel("Human action").selectOption("needed");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/human_action=needed/);
      expect(await page.locator(".rows .title").allTextContents()).toEqual(["Export retries failed uploads"]);
      await page.getByRole("link", { name: "Export retries failed uploads" }).click();
      await page.waitForURL(`${base}/a/${data.full.id}`);
      expect(await page.locator(".chip").textContent()).toContain("You need to do");
    } finally {
      await noScript.close();
    }
  });

  it("signs out through the form", async () => {
    const page = await sam.context.newPage();
    await visit(page, `${base}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/signin`);
    await visit(page, `${base}/doctor`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.close();
  });
});
