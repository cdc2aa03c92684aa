import type { lintSource as LintSource } from "@secretlint/core";

/** One secret found by secretlint: the short rule name and the secret's text itself. */
export interface SecretlintFinding {
  rule: string;
  value: string;
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
    const [{ lintSource }, preset] = await Promise.all([
      import("@secretlint/core"),
      import("@secretlint/secretlint-rule-preset-recommend"),
    ]);
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
 * The secret a message is about. Ranges are not reliable for that: the AWS secret-key
 * rule's range starts at the label and stops short of the end of the key. Each rule puts
 * the matched secret in the message data, so the longest data value that occurs in the
 * text is the secret; the range is the fallback.
 */
function secretOf(content: string, range: readonly [number, number], data: unknown): string {
  const values = Object.values((data ?? {}) as Record<string, unknown>).filter(
    (v): v is string => typeof v === "string" && v.length >= 8 && content.includes(v),
  );
  values.sort((a, b) => b.length - a.length);
  return values[0] ?? content.slice(range[0], range[1]);
}

/** Scans one text with secretlint's recommended preset. */
export async function scanWithSecretlint(content: string): Promise<SecretlintFinding[]> {
  if (content.length === 0) return [];
  const { lintSource, config } = await load();
  const result = await lintSource({
    source: { content, filePath: "/receipt.txt", contentType: "text" },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({
    rule: m.ruleId.startsWith(RULE_PREFIX) ? m.ruleId.slice(RULE_PREFIX.length) : m.ruleId,
    value: secretOf(content, m.range, m.data),
  }));
}

/** Loads secretlint ahead of the first scan (servers call this at start-up). */
export async function preloadSecretScanner(): Promise<void> {
  await load();
}
