import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startWebServer } from "../env.js";

type Json = Record<string, any>;
const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));

/** One JSON-RPC request to /mcp as a 2025-11-25 client (plain JSON answers). */
async function mcp(base: string, token: string, method: string, params: Json): Promise<Json> {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await res.json()) as Json;
  if (answer.error) throw new Error(JSON.stringify(answer.error));
  return answer.result;
}

/**
 * A minimal MCP Apps host: the card in a sandboxed iframe (scripts only, an opaque origin),
 * served under the CSP its `_meta.ui.csp` asks for (no domain: nothing to load or fetch).
 * It answers `ui/initialize` with the theme, then posts the tool result; `ui/open-link`
 * requests are recorded, `ui/notifications/size-changed` sets the frame's height.
 */
function hostPage(theme: "light" | "dark", result: Json): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<style>body{margin:0;background:${theme === "dark" ? "#000" : "#eee"}}iframe{display:block;width:100%;border:0;height:400px}</style></head>
<body><main><iframe id="app" title="Receipt card" sandbox="allow-scripts" src="/app"></iframe></main><script>
window.opened = []; window.log = [];
const frame = document.getElementById("app");
const reply = (id, result) => frame.contentWindow.postMessage({ jsonrpc: "2.0", id, result }, "*");
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data; window.log.push(m.method);
  if (m.method === "ui/initialize") reply(m.id, { protocolVersion: m.params.protocolVersion, hostInfo: { name: "test-host", version: "1" }, hostCapabilities: { openLinks: {} }, hostContext: { theme: ${JSON.stringify(theme)}, displayMode: "inline" } });
  else if (m.method === "ui/notifications/initialized") frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: ${JSON.stringify(result).replace(/</g, "\\u003c")} }, "*");
  else if (m.method === "ui/open-link") { window.opened.push(m.params.url); reply(m.id, {}); }
  else if (m.method === "ui/notifications/size-changed" && m.params.height) frame.style.height = m.params.height + "px";
});
</script></body></html>`;
}

/** The Content-Security-Policy a host derives from `_meta.ui.csp` with no domains. */
const APP_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; frame-ancestors *";

async function startHost(appHtml: string): Promise<{ url: string; set(page: string): void; close(): Promise<void> }> {
  let host = "";
  const server: Server = createServer((req, res) => {
    if (req.url === "/app") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": APP_CSP });
      return res.end(appHtml);
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(host);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    set: (page) => {
      host = page;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The data-field / data-part marks of the rendered card, in document order. */
const marks = (frame: Frame) =>
  frame.evaluate(() =>
    [...document.querySelectorAll("[data-field],[data-part]")].map((e) => e.getAttribute("data-field") ?? `part:${e.getAttribute("data-part")}`),
  );

describe("the receipt card as an MCP App, in a host page in Chromium (SPEC §25)", () => {
  let env: Awaited<ReturnType<typeof startWebServer>>;
  let host: Awaited<ReturnType<typeof startHost>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let created: Json;
  let bare: Json;

  beforeAll(async () => {
    env = await startWebServer();
    mkdirSync(SCREENSHOTS, { recursive: true });
    const base = env.server.url;
    const app = await mcp(base, env.adminToken, "resources/read", { uri: "ui://cairn/receipt-card" });
    host = await startHost(app.contents[0].text);
    created = await mcp(base, env.adminToken, "tools/call", {
      name: "receipt_create",
      arguments: {
        changed: "Rotated the <b>staging</b> API keys & revoked the old ones <script>alert(1)</script>",
        affected: "Everyone who deploys to staging",
        before: "Keys were eleven months old and shared in a chat channel.",
        after: "Keys are fresh, stored in the vault, and rotate every 90 days.",
        evidence: [{ label: "Vault audit log", url: "https://vault.example.com/audit/42" }],
        outcome: { status: "pending", measure_at: "2030-01-15", summary: "No deploy fails for a missing key." },
        human_action: "Approve the vault policy change",
        remaining: [{ item: "Rotate the production keys", owner: "sam" }],
        learned: "The old keys were also used by the nightly export.",
        ask: {
          options: [
            { id: "approve", label: "Approve the policy" },
            { id: "hold", label: "Hold until Monday" },
          ],
          answer_by: "2030-01-10T17:00:00Z",
        },
      },
    });
    bare = await mcp(base, env.adminToken, "tools/call", {
      name: "receipt_create",
      arguments: {
        changed: "Renamed the staging bucket for the exports",
        affected: "Nobody outside the team",
        before: "exports-tmp",
        after: "exports-staging",
        evidence: [],
        outcome: { status: "not_applicable" },
        remaining: [],
        learned: "nothing new",
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await env?.close();
  });

  async function open(theme: "light" | "dark", width: number, result: Json): Promise<{ page: Page; frame: Frame }> {
    host.set(hostPage(theme, result));
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(host.url);
    const frame = page.frames().find((f) => f.url().endsWith("/app")) as Frame;
    await frame.waitForSelector("[data-part=links]");
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.includes("ui/notifications/size-changed"));
    return { page, frame };
  }

  it("renders the tool result's receipt in the seed's order, every text escaped, never 'verified'", async () => {
    expect(created._meta["cairn.dev/card"]).toBeDefined();
    const { page, frame } = await open("light", 600, created);
    try {
      const order = (await marks(frame)).filter((m) =>
        ["part:header", "changed", "part:chip", "part:ask", "before", "after", "evidence", "outcome.status", "remaining", "learned", "part:links"].includes(m),
      );
      expect(order).toEqual([
        "part:header",
        "changed",
        "part:chip",
        "part:ask",
        "before",
        "after",
        "evidence",
        "outcome.status",
        "remaining",
        "learned",
        "part:links",
      ]);
      const text = await frame.evaluate(() => document.getElementById("card")?.textContent ?? "");
      expect(text).toContain("Receipt asserted by");
      expect(text).toContain("You need to do: Approve the vault policy change");
      expect(text).toContain("Rotated the <b>staging</b> API keys & revoked the old ones <script>alert(1)</script>");
      expect(await frame.evaluate(() => document.querySelectorAll("#card b, #card script").length)).toBe(0);
      expect(text.toLowerCase()).not.toContain("verified");
      expect(text).toContain("Rotate the production keys — sam");
      // The ask's options and deadline (SPEC §32); each option opens the receipt's page, where the person answers.
      expect(await frame.$$eval("[data-part=ask] [data-option]", (bs) => bs.map((b) => [b.getAttribute("data-option"), b.textContent]))).toEqual([
        ["approve", "Approve the policy"],
        ["hold", "Hold until Monday"],
      ]);
      expect(await frame.textContent("[data-part=answer_by]")).toBe("Answer by 2030-01-10 17:00 UTC");
      await frame.click("[data-option=hold]");
      // Acknowledge, Retain, Assign: links to the receipt's page through the host, never writes from inside it.
      for (const action of ["acknowledge", "retain", "assign"]) await frame.click(`[data-action=${action}]`);
      await frame.click("[data-field='evidence.0']");
      const opened = await page.evaluate(() => (window as unknown as { opened: string[] }).opened);
      const receiptPage = `${env.server.url}/a/${created.structuredContent.id}`;
      expect(opened).toEqual([receiptPage, receiptPage, receiptPage, receiptPage, "https://vault.example.com/audit/42"]);
    } finally {
      await page.close();
    }
  });

  it("says 'No evidence linked' and offers no Acknowledge when nothing is asked", async () => {
    const { page, frame } = await open("light", 320, bare);
    try {
      expect(await frame.textContent("[data-field=evidence][data-empty=true]")).toBe("No evidence linked");
      expect(await frame.$("[data-action=acknowledge]")).toBeNull();
      expect(await frame.textContent("[data-part=chip]")).toBe("You need to do: Nothing");
    } finally {
      await page.close();
    }
  });

  for (const theme of ["light", "dark"] as const) {
    for (const width of [320, 600]) {
      it(`follows the host's ${theme} theme at ${width} px: no horizontal scrolling, axe-clean, screenshot`, async () => {
        const { page, frame } = await open(theme, width, created);
        try {
          expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          const background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
          expect(background).toBe(theme === "dark" ? "rgb(15, 20, 25)" : "rgb(255, 255, 255)");
          expect(await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          const axe = await new AxeBuilder({ page }).analyze();
          const serious = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
          expect(serious, JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.target)]))).toEqual([]);
          const frameHandle = await page.$("iframe");
          await frameHandle?.screenshot({ path: `${SCREENSHOTS}mcp-app-${theme}-${width}.png` });
        } finally {
          await page.close();
        }
      });
    }
  }
});
