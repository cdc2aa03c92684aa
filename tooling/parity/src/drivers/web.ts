import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Artifact, artifactProvenanceLine } from "@cairn/core";
import type { BrowserContext } from "playwright-core";
import type { Driver } from "../types.js";

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? "/usr/bin/chromium";

interface ShownField {
  field: string;
  text: string;
  href: string | null;
  value: string | null;
}

function expectedFields(a: Artifact): Map<string, string> {
  const m = a.metadata as Record<string, any>;
  const shown = new Map<string, string>([
    ["title", a.title],
    ["assertion", artifactProvenanceLine(a)],
    ["checksum", a.checksum],
    ["changed", m.changed],
    ["human_action", m.human_action],
    ["affected", m.affected],
    ["before", m.before],
    ["after", m.after],
    ["learned", m.learned],
    ["outcome.status", m.outcome.status],
  ]);
  if (m.evidence_note) shown.set("evidence_note", m.evidence_note);
  if (m.outcome.measure_at) shown.set("outcome.measure_at", m.outcome.measure_at);
  if (m.outcome.summary) shown.set("outcome.summary", m.outcome.summary);
  m.evidence.forEach((e: { label: string; url: string }, i: number) => {
    shown.set(`evidence.${i}`, `${e.label} → ${e.url}`);
  });
  m.remaining.forEach((r: { item: string; owner: string }, i: number) => {
    shown.set(`remaining.${i}`, `${r.item} — ${r.owner}`);
  });
  return shown;
}

/**
 * The page is the share-link holder's view, and a link opens one artifact only: the
 * receipt it follows and the runs that produced it stay hidden (SPEC §9), even though
 * the owner's `read` lists them.
 */
const HIDDEN_FROM_LINK_HOLDERS = ["follows", "produced_by"];

/**
 * Reads through the share-link page in headless Chromium and checks the card shows
 * exactly the values `read` returns. It cannot write, so it only verifies artifacts.
 */
export async function webDriver(): Promise<Driver> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "cairn-parity-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
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
    name: "web",
    surface: null,
    async verifyArtifact(artifact) {
      const page = await context.newPage();
      try {
        const response = await page.goto(artifact.url);
        if (response?.status() !== 200) return [`page ${artifact.url} answered ${response?.status()}`];
        const shown: ShownField[] = await page.$$eval("[data-field]", (nodes) =>
          nodes.map((n) => ({
            field: n.getAttribute("data-field") ?? "",
            text: n.textContent ?? "",
            href: n.getAttribute("href"),
            value: n.getAttribute("data-value"),
          })),
        );
        const actual = new Map<string, string>();
        for (const s of shown) {
          if (/^remaining\.\d+$/.test(s.field)) actual.set(s.field, s.text);
          else if (s.href !== null) actual.set(s.field, `${s.text} → ${s.href}`);
          else actual.set(s.field, s.value ?? s.text);
        }
        const problems: string[] = [];
        for (const [field, want] of expectedFields(artifact)) {
          const got = actual.get(field);
          if (got !== want) problems.push(`web card ${field}: shows ${JSON.stringify(got)}, read returns ${JSON.stringify(want)}`);
        }
        for (const field of HIDDEN_FROM_LINK_HOLDERS) {
          const got = actual.get(field);
          if (got !== undefined) problems.push(`web card ${field}: shows ${JSON.stringify(got)} to a link holder, who may not read it`);
        }
        return problems;
      } finally {
        await page.close();
      }
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
