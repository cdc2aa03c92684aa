import type { lintSource as LintSource } from "@secretlint/core";
import { mayHoldSecret } from "./prefilter.js";

/** One secret found by secretlint: the short rule name, the secret's text itself and where it starts in the scanned text. */
export interface SecretlintFinding {
  rule: string;
  value: string;
  at: number;
}

type Config = Parameters<typeof LintSource>[0]["options"]["config"];
let loaded: Promise<{ lintSource: typeof LintSource; config: Config }> | undefined;

/**
 * secretlint is loaded on first use, not at import: processes that never scan (the CLI's
 * light commands) do not pay for it. The AWS rule's access-key-id scan is off by default
 * upstream; receipts turn it on because an `AKIA…` id next to its secret is the common leak.
 */
function load() {
  loaded ??= (async () => {
    const [{ lintSource }, preset, { secretLintProfiler }] = await Promise.all([
      import("@secretlint/core"),
      import("@secretlint/secretlint-rule-preset-recommend"),
      import("@secretlint/profiler"),
    ]);
    // On by default, the profiler keeps every performance mark of every scan forever (secretlint
    // #1633): RSS grew from 94 to 876 MB over 28k receipts. Nothing here reads its report.
    secretLintProfiler.setEnabled(false);
    const config: Config = {
      rules: [
        {
          id: "@secretlint/secretlint-rule-preset-recommend",
          rule: preset.creator,
          rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
        },
      ],
    };
    return { lintSource, config };
  })();
  return loaded;
}

const RULE_PREFIX = "@secretlint/secretlint-rule-";

/**
 * The secret a message is about, and where it starts. Ranges are not reliable for that:
 * the AWS secret-key rule's range starts at the label and stops short of the end of the
 * key. Each rule puts the matched secret in the message data, so the longest data value
 * found around the range is the secret; the range is the fallback. Only the text around
 * the range is searched, so a message costs its own length, not the whole text's.
 */
function secretOf(content: string, range: readonly [number, number], data: unknown): { value: string; at: number } {
  let best: { value: string; at: number } | undefined;
  for (const v of Object.values((data ?? {}) as Record<string, unknown>)) {
    if (typeof v !== "string" || v.length < 8 || (best && best.value.length >= v.length)) continue;
    const from = Math.max(0, range[0] - v.length);
    const at = content.slice(from, range[1] + v.length).indexOf(v);
    if (at !== -1) best = { value: v, at: from + at };
  }
  return best ?? { value: content.slice(range[0], range[1]), at: range[0] };
}

/**
 * Scans one text with secretlint's recommended preset. Callers keep each text short
 * (scan.ts reads in windows): secretlint de-duplicates a pass's messages pairwise, so one
 * pass costs the square of the secrets in it. A text that no rule of the preset could
 * match is not handed to secretlint at all (the exact prefilter, ADR 0058).
 */
export async function scanWithSecretlint(content: string): Promise<SecretlintFinding[]> {
  if (content.length === 0 || !mayHoldSecret(content)) return [];
  return runSecretlint(content);
}

/** secretlint itself, with no prefilter: what the prefilter is tested against. */
export async function runSecretlint(content: string): Promise<SecretlintFinding[]> {
  const { lintSource, config } = await load();
  const result = await lintSource({
    source: { content, filePath: "/receipt.txt", contentType: "text" },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({
    rule: m.ruleId.startsWith(RULE_PREFIX) ? m.ruleId.slice(RULE_PREFIX.length) : m.ruleId,
    ...secretOf(content, m.range, m.data),
  }));
}

/** Loads secretlint ahead of the first scan (servers call this at start-up). */
export async function preloadSecretScanner(): Promise<void> {
  await load();
}
