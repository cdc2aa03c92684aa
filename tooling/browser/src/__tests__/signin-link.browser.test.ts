import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startWebServer } from "../env.js";

const run = promisify(execFile);
const CAIRN = fileURLToPath(new URL("../../../../apps/cli/dist/bin.cjs", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));

/** `cairn open` as a person runs it: the built binary, with no display and no $BROWSER unless given. */
async function cairnOpen(url: string, token: string, args: string[] = [], env: Record<string, string> = {}) {
  const { DISPLAY: _d, WAYLAND_DISPLAY: _w, BROWSER: _b, ...inherited } = process.env;
  return run(process.execPath, [CAIRN, "open", ...args], {
    env: { ...inherited, CAIRN_URL: url, CAIRN_TOKEN: token, CAIRN_HOME: "/nonexistent/cairn-home", ...env },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe("cairn open, followed in Chromium (SPEC §22)", () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let scratch: string;

  beforeAll(async () => {
    env = await startWebServer();
    scratch = mkdtempSync(join(tmpdir(), "cairn-open-"));
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await env?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("prints a link without failing where there is no browser; Chromium lands signed in; the same link again does not", async () => {
    const base = env.server.url;
    const opened = await cairnOpen(base, env.adminToken);
    expect(opened.code).toBe(0);
    const link = opened.stdout.trim();
    expect(link).toMatch(new RegExp(`^${base}/signin/link/[A-Za-z0-9_-]{43}$`));
    expect(opened.stderr).toMatch(/^Open it in a browser: it signs you in once, until \d\d:\d\d UTC, and lands on \/\.$/m);

    const first = await launchBrowser();
    const second = await launchBrowser();
    try {
      const page = await first.context.newPage();
      // SPEC §24: the GET shows one button and spends nothing (a chat app's preview fetches it first).
      for (const width of [1280, 390] as const) {
        for (const scheme of ["light", "dark"] as const) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await page.emulateMedia({ colorScheme: scheme });
          const shown = await page.goto(link);
          expect(shown?.status()).toBe(200);
          const axe = await new AxeBuilder({ page }).analyze();
          expect(
            axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
            `${width} ${scheme}`,
          ).toEqual([]);
          await page.screenshot({ path: join(SCREENSHOTS, `signin-link-button-${width}-${scheme}.png`), fullPage: true });
        }
      }
      expect((await first.context.cookies()).map((c) => c.name)).not.toContain("cairn_session");
      await page.getByRole("button", { name: "Sign in as admin" }).click();
      await page.waitForURL(`${base}/`);
      expect(page.url()).toBe(`${base}/`);
      await expect(page.getByText("Signed in as").textContent()).resolves.toContain("admin");
      expect((await first.context.cookies()).map((c) => c.name)).toContain("cairn_session");

      const other = await second.context.newPage();
      const spent = await other.goto(link);
      expect(spent?.status()).toBe(410);
      expect(other.url()).toBe(link);
      await expect(other.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("This sign-in link has been used or has expired");
      expect((await second.context.cookies()).map((c) => c.name)).not.toContain("cairn_session");
      await other.goto(`${base}/`);
      expect(new URL(other.url()).pathname).toBe("/signin");

      // What a person sees on the used link: both widths, both schemes, nothing serious for axe.
      for (const width of [1280, 390] as const) {
        for (const scheme of ["light", "dark"] as const) {
          await other.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await other.emulateMedia({ colorScheme: scheme });
          await other.goto(link);
          const scroll = await other.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(scroll, `${width} ${scheme}`).toBeLessThanOrEqual(0);
          const axe = await new AxeBuilder({ page: other }).analyze();
          expect(
            axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
            `${width} ${scheme}`,
          ).toEqual([]);
          await other.screenshot({ path: join(SCREENSHOTS, `signin-link-used-${width}-${scheme}.png`), fullPage: true });
        }
      }
    } finally {
      await first.close();
      await second.close();
    }
  }, 180_000);

  // axe over the API reference takes 12 s a pass on a loaded 2-core machine.
  it("/docs links back to the app (SPEC §22)", async () => {
    const base = env.server.url;
    const profile = await launchBrowser();
    try {
      const page = await profile.context.newPage();
      for (const [width, scheme] of [
        [1280, "light"],
        [390, "dark"],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${base}/docs`);
        const axe = await new AxeBuilder({ page }).analyze();
        expect(
          axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
          `${width} ${scheme}`,
        ).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, `docs-${width}-${scheme}.png`) });
      }
      await page.getByRole("link", { name: "← Back to Cairn" }).click();
      expect(new URL(page.url()).pathname).toBe("/signin");
    } finally {
      await profile.close();
    }
  }, 180_000);

  it("lands on the artifact it names, opens $BROWSER when one is set, and refuses an agent token", async () => {
    const base = env.server.url;
    const res = await fetch(`${base}/v1/receipts`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.adminToken}`, "content-type": "application/json" },
      body: readFileSync(fileURLToPath(new URL("../../../../examples/receipt.json", import.meta.url)), "utf8"),
    });
    const { id } = (await res.json()) as { id: string };

    // A stand-in browser: it only writes down the URL it was asked to open.
    const asked = join(scratch, "asked");
    const browser = join(scratch, "browser.sh");
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(asked)}\n`);
    chmodSync(browser, 0o755);
    const opened = await cairnOpen(base, env.adminToken, [id], { BROWSER: browser });
    expect(opened.code).toBe(0);
    expect(opened.stderr).toContain(`Opened in your browser: it signs you in once`);
    const link = opened.stdout.trim();
    for (let i = 0; i < 50 && !readable(asked); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(asked, "utf8")).toBe(link);

    const profile = await launchBrowser();
    try {
      const page = await profile.context.newPage();
      await page.goto(link);
      await page.getByRole("button", { name: /^Sign in as / }).click();
      await page.waitForURL(`${base}/a/${id}`);
      expect(page.url()).toBe(`${base}/a/${id}`);
    } finally {
      await profile.close();
    }

    const agent = await fetch(`${base}/v1/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "claude", kind: "agent" }),
    });
    const refused = await cairnOpen(base, ((await agent.json()) as { token: string }).token);
    expect(refused.code).toBe(4);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("lacks the permission sessions:write");
  }, 120_000);
});

function readable(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}
