import { mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "@cairn/cli";
import { resolveSettings } from "@cairn/core/local";
import { freshPgliteDir } from "@cairn/core/testing";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? "/usr/bin/chromium";

/** One real `cairn serve` (in-process, free port, embedded store): the web tests check pages, not storage. */
export async function startWebServer(): Promise<{ server: RunningServer; adminToken: string; close(): Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "cairn-browser-"));
  renameSync(await freshPgliteDir(), join(home, "pgdata"));
  const settings = resolveSettings({ CAIRN_HOME: home, PORT: "0", HOST: "127.0.0.1" });
  const server = await startServer(settings, { info: () => {} }, "browser");
  const adminToken = (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;
  return {
    server,
    adminToken,
    async close() {
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A fresh browser profile: its own cookies, so two of them are two people. */
export async function launchBrowser(options: { javaScript?: boolean } = {}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "cairn-browser-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    javaScriptEnabled: options.javaScript ?? true,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Another site (localhost is a different site from 127.0.0.1) serving a page whose form
 * posts to Cairn: what a cross-site request forgery looks like, without any script.
 */
export async function startHostileSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = `<!doctype html><html lang="en"><head><title>Win a prize</title></head><body><main>
<form method="post" action="${target}/signout"><input type="hidden" name="csrf" value="guess"><button id="signout">Claim</button></form>
<form method="post" action="${target}/signin"><input type="hidden" name="token" value="cairn_attacker"><input type="hidden" name="csrf" value="guess"><button id="signin">Claim again</button></form>
</main></body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** WCAG relative luminance contrast of two CSS rgb()/rgba() colours (alpha ignored: our colours are opaque). */
export function contrastOf(fg: string, bg: string): number {
  const lum = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return ((a ?? 0) + 0.05) / ((b ?? 0) + 0.05);
}
