import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { startReceiver, type TestReceiver } from "@cairn/core/testing";
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

/** /settings/notifications (SPEC §27) over a real cairn serve (no mail configured) and loopback Slack and ntfy receivers. */
describe("the notification settings page in Chromium", () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let slack: TestReceiver;
  let ntfy: TestReceiver;
  let base: string;
  let token: string;

  beforeAll(async () => {
    env = await startWebServer();
    base = env.server.url;
    slack = await startReceiver("/services/T000/B000/browser");
    ntfy = await startReceiver("/cairn-sam");
    const sam = await call(base, env.adminToken, "POST", "/v1/users", { name: "sam" });
    token = sam.token.token as string;
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
    await slack?.close();
    await ntfy?.close();
    await env?.close();
  });

  it("adds, tests and removes channels, switches triggers and makes a feed key, each through a form", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/settings/notifications`);
    expect(await page.locator("main").textContent()).toContain("No channels yet");
    // No mail on this server: email cannot be chosen, and the page says why.
    expect(await page.locator('option[value="email"]').isDisabled()).toBe(true);

    await page.getByLabel("Kind").selectOption("slack");
    await page.getByLabel("Address or URL").fill("not a url");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    expect(await page.getByRole("alert").textContent()).toContain("target");

    await page.getByLabel("Kind").selectOption("slack");
    await page.getByLabel("Address or URL").fill(slack.url);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.waitForURL(`${base}/settings/notifications?done=added`);
    await page.getByLabel("Kind").selectOption("ntfy");
    await page.getByLabel("Address or URL").fill(ntfy.url);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.waitForURL(`${base}/settings/notifications?done=added`);
    const rows = page.getByRole("list", { name: "Your channels" }).locator("> li");
    expect(await rows.count()).toBe(2);
    expect(await page.locator("main").textContent()).not.toContain("/services/T000/B000/browser"); // masked

    await page.getByRole("button", { name: /^Send a test to http:\/\/127\.0\.0\.1:\d+\/…wser$/ }).click();
    await page.waitForURL(`${base}/settings/notifications?done=tested`);
    const [test] = await slack.waitFor(1, 15_000);
    expect(JSON.parse(test?.body as string).text).toContain("Cairn test notification");

    await page.getByLabel("A daily digest of what waits on me").check();
    await page.getByLabel("Digest at (UTC)").selectOption("7");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${base}/settings/notifications?done=saved`);
    const settings = await call(base, token, "GET", "/v1/me/notifications");
    expect(settings).toMatchObject({ triggers: { digest: true, assigned: true }, digest_hour: 7 });

    await page.getByRole("button", { name: "Make a new feed key" }).click();
    const feedUrl = (await page.locator("main code").last().textContent()) as string;
    expect(feedUrl).toMatch(/\/feeds\/inbox\.atom\?key=cfk_/);
    expect((await fetch(feedUrl)).status).toBe(200);

    await page.goto(`${base}/settings/notifications`);
    await page.getByRole("button", { name: /^Remove http:\/\/127\.0\.0\.1:\d+\/…-sam$/ }).click();
    await page.waitForURL(`${base}/settings/notifications?done=removed`);
    expect(await rows.count()).toBe(1);
    await page.close();
  }, 60_000);

  it("light and dark, 1280 and 390 px, no sideways scroll, axe-clean; screenshots", async () => {
    for (const width of WIDTHS) {
      for (const scheme of SCHEMES) {
        const where = `notifications ${width} ${scheme}`;
        const page = await browser.context.newPage();
        const problems: string[] = [];
        page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
        page.on("pageerror", (e) => problems.push(e.message));
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const res = await page.goto(`${base}/settings/notifications?done=saved`);
        expect(res?.status(), where).toBe(200);
        const scroll = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
        expect(scroll.scroll, `${where}: scroll width`).toBeLessThanOrEqual(scroll.viewport);
        const axe = await new AxeBuilder({ page }).analyze();
        expect(
          axe.violations.map((x) => `${x.id} (${x.impact}): ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`),
          where,
        ).toEqual([]);
        expect(problems, where).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, `notifications-${width}-${scheme}.png`), fullPage: true });
        await page.close();
      }
    }
  }, 120_000);
});
