import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { eventually, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startWebServer } from "../env.js";

const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));
const WIDTHS = [1280, 390] as const;
const SCHEMES = ["light", "dark"] as const;

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The webhook pages (SPEC §19) over a real cairn serve whose worker delivers to loopback receivers. */
describe("the webhook pages in Chromium", () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let healthy: TestReceiver;
  let failing: TestReceiver;
  let base: string;
  let ids: { healthy: string; failing: string; gone: string };

  beforeAll(async () => {
    env = await startWebServer();
    base = env.server.url;
    healthy = await startReceiver();
    failing = await startReceiver();
    failing.script(...Array(20).fill({ status: 500 }));
    const gone = await startReceiver();
    gone.script({ status: 410 });
    const sam = await call(base, env.adminToken, "POST", "/v1/users", { name: "sam" });
    const token = sam.token.token as string;
    const as = (method: string, path: string, body?: unknown) => call(base, token, method, path, body);
    ids = {
      healthy: (await as("POST", "/v1/subscriptions", { url: healthy.url })).id,
      failing: (await as("POST", "/v1/subscriptions", { url: `${failing.url}/orders`, events: ["artifact.created", "receipt.dropped"] })).id,
      gone: (await as("POST", "/v1/subscriptions", { url: `${gone.url}/retired` })).id,
    };
    for (const title of ["Nightly export", "Rotated the staging password", "Runbook"]) await as("POST", "/v1/artifacts", { title, body: "x" });
    await as("POST", `/v1/subscriptions/${ids.healthy}/test`);
    await healthy.waitFor(4);
    await failing.waitFor(3);
    await eventually(async () => !(await as("GET", `/v1/subscriptions/${ids.gone}`)).enabled);
    await gone.close();
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/`);
    await page.close();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await healthy?.close();
    await failing?.close();
    await env?.close();
  });

  it("lists each subscription's state, failing since and last attempts, and shows one's event log", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/subscriptions`);
    const rows = page.locator("ol.rows > li");
    expect(await rows.count()).toBe(3);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("Delivering");
    expect(text).toMatch(/Failing since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(text).toContain("Disabled: The receiver answered 410 Gone.");
    expect(text).toContain("webhook.test");
    expect(await page.getByRole("link", { name: "Webhooks" }).getAttribute("aria-current")).toBe("page");

    await page.getByRole("link", { name: `${failing.url}/orders` }).click();
    await page.waitForURL(`${base}/subscriptions/${ids.failing}`);
    const log = page.getByRole("list", { name: "Events, newest first" }).locator("> li");
    expect(await log.count()).toBe(3);
    expect(await log.first().textContent()).toMatch(/pending\s+artifact\.created/);
    // 1 attempt, or more when the machine is slow enough for the schedule's next one to come first.
    expect(await log.first().textContent()).toMatch(/Waiting · (1 attempt|[2-9] attempts) · next attempt \d{4}-\d\d-\d\d \d\d:\d\d UTC|Sending now/);
    expect(await page.locator("main").textContent()).toContain("HTTP 500");
    await page.close();
  });

  it("both pages: light and dark, 1280 and 390 px, no sideways scroll, axe-clean; screenshots", async () => {
    const pages = [
      { name: "subscriptions", path: "/subscriptions" },
      { name: "subscription-failing", path: `/subscriptions/${ids.failing}` },
      { name: "subscription-healthy", path: `/subscriptions/${ids.healthy}` },
    ];
    for (const p of pages) {
      for (const width of WIDTHS) {
        for (const scheme of SCHEMES) {
          const where = `${p.name} ${width} ${scheme}`;
          const page = await browser.context.newPage();
          const problems: string[] = [];
          page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
          page.on("pageerror", (e) => problems.push(e.message));
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await page.emulateMedia({ colorScheme: scheme });
          const res = await page.goto(`${base}${p.path}`);
          expect(res?.status(), where).toBe(200);
          const scroll = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
          expect(scroll.scroll, `${where}: scroll width`).toBeLessThanOrEqual(scroll.viewport);
          const axe = await new AxeBuilder({ page }).analyze();
          expect(
            axe.violations.map((x) => `${x.id} (${x.impact}): ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`),
            where,
          ).toEqual([]);
          expect(problems, where).toEqual([]);
          await page.screenshot({ path: join(SCREENSHOTS, `${p.name}-${width}-${scheme}.png`), fullPage: true });
          await page.close();
        }
      }
    }
  }, 120_000);

  it("another person sees neither page's subscriptions", async () => {
    const eve = await call(base, env.adminToken, "POST", "/v1/users", { name: "eve" });
    const other = await launchBrowser();
    try {
      const page = await other.context.newPage();
      await page.goto(`${base}/signin`);
      await page.getByLabel("Token").fill(eve.token.token);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/`);
      await page.goto(`${base}/subscriptions`);
      expect(await page.locator("main").textContent()).toContain("No subscriptions.");
      const res = await page.goto(`${base}/subscriptions/${ids.failing}`);
      expect(res?.status()).toBe(404);
    } finally {
      await other.close();
    }
  });
});
