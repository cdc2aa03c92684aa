import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startWebServer } from "../env.js";

/** Kept as CI output (gitignored), beside the other page types. */
const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));

async function api<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as T;
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const receipt = (overrides: Record<string, unknown>) => ({
  changed: "Nightly export now retries failed uploads",
  affected: "Finance analysts who read the morning export",
  before: "A single failed upload left the export empty.",
  after: "Failed uploads are retried three times with backoff.",
  evidence: [{ label: "CI run 4812", url: "https://ci.example.com/runs/4812" }],
  outcome: { status: "not_applicable" },
  remaining: [],
  learned: "The upload target drops connections at 02:00.",
  ...overrides,
});

/** Every state a page gains here, at both widths and in both schemes: axe-clean, no sideways scroll, a screenshot each. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390] as const) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      const where = `${name} ${width} ${scheme}`;
      const axe = await new AxeBuilder({ page }).analyze();
      const serious = axe.violations.filter((x) => x.impact === "serious" || x.impact === "critical");
      expect(
        serious.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        where,
      ).toEqual([]);
      const { scroll, viewport } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      expect(scroll, `${where}: scroll width`).toBeLessThanOrEqual(viewport);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
}

// Each test shoots and axe-checks every state it reaches at 2 widths and 2 schemes (28 axe
// passes in the first alone, 1–3 s each on a loaded 2-core machine): more than the default.
describe("closing the loop from the web (SPEC §20) in Chromium", { timeout: 300_000 }, () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let base: string;
  let sam: { name: string; token: string };
  let kim: { name: string; token: string };
  let asks: { id: string; url: string; title: string };
  let original: { id: string; title: string; url: string };
  let followUp: { id: string; title: string };
  let team: string;

  beforeAll(async () => {
    env = await startWebServer();
    base = env.server.url;
    const person = async (name: string) => ({
      name,
      token: (await api<{ token: { token: string } }>(base, env.adminToken, "POST", "/v1/users", { name })).token.token,
    });
    sam = await person("sam");
    kim = await person("kim");
    team = (await api<{ owner: string }>(base, sam.token, "POST", "/v1/teams", { name: "finance" })).owner;
    await api(base, sam.token, "POST", "/v1/teams/finance/members", { user: kim.name });
    await api(base, kim.token, "POST", "/v1/invitations/finance/accept");
    asks = await api(base, sam.token, "POST", "/v1/receipts", receipt({ owner: team, human_action: "Approve the retry budget in `#finance-ops`." }));
    original = await api(
      base,
      sam.token,
      "POST",
      "/v1/receipts",
      receipt({
        changed: "Turned on upload retries for the invoice export",
        outcome: { status: "pending", measure_at: "2026-01-15T09:00:00Z" },
        details: "| run | result |\n|---|---|\n| 4811 | failed |\n| 4812 | green |\n\nDashboard: https://grafana.example.com/d/export",
      }),
    );
    await api(
      base,
      sam.token,
      "POST",
      "/v1/receipts",
      receipt({ changed: "Rotated the export key", outcome: { status: "pending", measure_at: "2026-02-01" } }),
    );
    browser = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
    const page = await browser.context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel("Token").fill(sam.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/`);
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it("signs in, retains, assigns and acknowledges from /a/:id, sees each confirmation, and the bin reads it as acknowledged", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/a/${asks.id}`);
    expect(await page.locator("#share-link").inputValue()).toBe(asks.url);
    await shoot(page, "artifact-actions");

    await page.getByRole("button", { name: "Retain" }).click();
    await page.waitForURL(`${base}/a/${asks.id}?done=retained`);
    expect(await page.getByRole("status").textContent()).toBe("Retained: it does not expire.");
    expect(await page.locator(".facts").textContent()).toContain("Retained");
    await shoot(page, "artifact-retained");

    await page.getByLabel("Who must act").selectOption(kim.name);
    await page.getByRole("button", { name: "Assign" }).click();
    await page.waitForURL(`${base}/a/${asks.id}?done=assigned`);
    expect(await page.getByRole("status").textContent()).toBe(`Assigned to ${kim.name}.`);
    expect(await page.locator('[data-field="assignee"]').textContent()).toBe(`Assigned to ${kim.name}`);
    await shoot(page, "artifact-assigned");

    await page.getByLabel("Note (optional)").fill("Approved in #finance-ops");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await page.waitForURL(`${base}/a/${asks.id}?done=acknowledged`);
    expect(await page.getByRole("status").textContent()).toBe("Acknowledged: you said you saw what it asks.");
    expect(await page.locator('.chip [data-part="acknowledged"]').textContent()).toBe("✓ Acknowledged");
    expect(await page.locator(".acks").textContent()).toMatch(/^sam acknowledged \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: Approved in #finance-ops$/);
    expect(await page.locator(".chip").getAttribute("class")).toBe("chip calm");
    await shoot(page, "artifact-acknowledged-by");

    await page.goto(`${base}/`);
    const row = page.locator(".rows li", { hasText: asks.title });
    expect(await row.locator('[data-part="acknowledged"]').textContent()).toMatch(/^✓ sam acknowledged /);
    expect(await row.locator(".pill").getAttribute("class")).toBe("pill calm");
    expect(await row.textContent()).toContain(`Assigned to ${kim.name}`);
    // The bin's selects show their longest choice whole at 1280 px.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const select of await page.locator(".filters select").all()) {
      const { scroll, client } = await select.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll).toBeLessThanOrEqual(client);
    }
    await shoot(page, "bin-acknowledged");

    await page.goto(`${base}/inbox?state=all`);
    expect(await page.locator('[data-state="acknowledged"] [data-part="acknowledged"]').count()).toBe(1);
    expect(await page.locator('[data-state="acknowledged"]').textContent()).not.toContain("waiting");
    await shoot(page, "inbox-acknowledged");
    await page.close();
  });

  it("marks an overdue outcome on the card; a follow-up turns it to Measured in, by title; the Mine tab lists what is assigned", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${base}/a/${original.id}`);
    expect(await page.locator('[data-part="overdue"]').textContent()).toBe("Overdue");
    expect(await page.locator('[data-field="outcome.measure_at"]').textContent()).toBe("2026-01-15 09:00 UTC");
    expect(
      await page
        .locator(".body td")
        .first()
        .evaluate((el) => getComputedStyle(el).paddingLeft),
    ).not.toBe("0px");
    expect(await page.locator('a[href="https://grafana.example.com/d/export"]').count()).toBe(1);
    await shoot(page, "artifact-overdue");
    await page.goto(`${base}/?outcome=overdue`);
    expect(await page.locator(".rows .title").allTextContents()).toContain(original.title);
    await shoot(page, "bin-overdue");

    followUp = await api(
      base,
      sam.token,
      "POST",
      "/v1/receipts",
      receipt({
        changed: "Measured the export's retry rate",
        outcome: { status: "measured", summary: "2 retries in 30 nights, no empty export" },
        follows: original.id,
      }),
    );
    await page.goto(`${base}/a/${original.id}`);
    expect(await page.locator('[data-part="overdue"]').count()).toBe(0);
    // SPEC §24: the card reads as closed — "Measured in <follow-up>", no "Pending · measure at".
    const outcome = page.locator("p", { has: page.locator('[data-part="measured"]') });
    expect(await outcome.textContent()).toBe(`Measured in ${followUp.title}`);
    await shoot(page, "artifact-measured");
    // The share page says so too, without naming a follow-up its holder cannot open.
    const shared = await browser.context.newPage();
    await shared.goto(original.url);
    expect(await shared.locator("p", { has: shared.locator('[data-part="measured"]') }).textContent()).toBe("Measured in a later receipt");
    expect(await shared.locator("main").textContent()).not.toMatch(/Pending|Overdue/);
    await shoot(shared, "share-measured");
    await shared.close();
    await page.goto(`${base}/?outcome=overdue`);
    expect(await page.locator(".rows .title").allTextContents()).not.toContain(original.title);
    await page.goto(`${base}/a/${followUp.id}`);
    expect(await page.locator('[data-field="follows"]').textContent()).toBe(original.title);
    await page.close();

    const kimBrowser = await launchBrowser();
    try {
      const kp = await kimBrowser.context.newPage();
      await kp.goto(`${base}/signin?next=/inbox%3Fstate%3Dmine`);
      await kp.getByLabel("Token").fill(kim.token);
      await kp.getByRole("button", { name: "Sign in" }).click();
      await kp.waitForURL(/\/inbox\?state=mine$/);
      expect(await kp.locator('nav[aria-label="Inbox states"] [aria-current="page"]').textContent()).toBe("Mine");
      // Assigned to kim but acknowledged by sam: nothing of kim's is open.
      expect(await kp.locator(".rows").count()).toBe(0);
      await shoot(kp, "inbox-mine-empty");
      const kims = await api<{ title: string }>(
        base,
        sam.token,
        "POST",
        "/v1/receipts",
        receipt({
          owner: team,
          changed: "Paused the invoice export for the migration",
          human_action: "Resume the export after the migration.",
          assignee: kim.name,
        }),
      );
      await kp.reload();
      expect(await kp.locator(".rows .title").allTextContents()).toEqual([kims.title]);
      expect(await kp.locator(".rows li").textContent()).toContain(`Assigned to ${kim.name}`);
      await shoot(kp, "inbox-mine");
      await kp.close();
    } finally {
      await kimBrowser.close();
    }
  });

  it("the doctor page dismisses the drops a person dealt with: they stay listed, marked dismissed, and the warning clears (SPEC §24)", async () => {
    const refused = await fetch(`${base}/v1/receipts`, {
      method: "POST",
      headers: { authorization: `Bearer ${sam.token}`, "content-type": "application/json" },
      body: JSON.stringify(receipt({ learned: "" })),
    });
    expect(refused.status).toBe(422);
    const page = await browser.context.newPage();
    await page.goto(`${base}/doctor`);
    expect(await page.locator(".checks li", { has: page.locator("strong", { hasText: /^Drops$/ }) }).textContent()).not.toContain("Doctor page");
    await shoot(page, "doctor-drops");
    await page.getByRole("button", { name: "Dismiss these drops" }).click();
    await page.waitForURL(/\/doctor\?dismissed=\d+$/);
    expect(await page.getByRole("status").textContent()).toMatch(/^Dismissed \d+ drops?: they stay listed and no longer warn\.$/);
    expect(await page.locator('[data-part="drop-state"]').first().textContent()).toBe("dismissed");
    expect(
      await page
        .locator(".checks li", { has: page.locator("strong", { hasText: /^Drops$/ }) })
        .locator(".status")
        .textContent(),
    ).toBe("ok");
    await shoot(page, "doctor-dismissed");
    await page.close();
  });

  it("the share link field works without JavaScript as a plain field; with it, the Copy button appears", async () => {
    const noScript = await launchBrowser({ javaScript: false });
    try {
      const page = await noScript.context.newPage();
      await page.goto(`${base}/signin?next=/a/${asks.id}`);
      await page.getByLabel("Token").fill(sam.token);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/a/${asks.id}`);
      expect(await page.getByLabel(/Share link/).inputValue()).toBe(asks.url);
      expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(0);
    } finally {
      await noScript.close();
    }
    const page = await browser.context.newPage();
    await page.goto(`${base}/a/${asks.id}`);
    expect(await page.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
    await page.close();
  });
});
