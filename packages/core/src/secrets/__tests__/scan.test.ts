import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { looksRandom } from "../entropy.js";
import { findSecrets, redactText } from "../scan.js";
import { PLANTED, rsaKey } from "./planted.js";

const scanOne = (value: string, entropy = false) => findSecrets([{ field: "before", value }], { entropy });

// Every rule Cairn relies on, with a planted secret: the rule fires and the redacted text no longer holds the secret.
const RULES: Array<[string, string, string]> = [
  ["github (classic)", `token ${PLANTED.ghp} leaked`, PLANTED.ghp],
  ["github (fine-grained)", `pat ${PLANTED.githubPat}`, PLANTED.githubPat],
  ["slack (token)", `bot ${PLANTED.slackToken}`, PLANTED.slackToken],
  ["slack (webhook)", `post to ${PLANTED.slackWebhook}`, PLANTED.slackWebhook],
  ["aws (access key id, enabled by Cairn)", `id ${PLANTED.awsKeyId} in use`, PLANTED.awsKeyId],
  ["aws (secret access key)", `aws_secret_access_key = ${PLANTED.awsSecret}`, PLANTED.awsSecret],
  ["basicauth", `see https://admin:${PLANTED.basicAuthPassword}@db.example.com/x`, PLANTED.basicAuthPassword],
  ["npm", `NPM ${PLANTED.npm}`, PLANTED.npm],
  ["openai", `key ${PLANTED.openai}`, PLANTED.openai],
  ["anthropic", `key ${PLANTED.anthropic}`, PLANTED.anthropic],
  ["privatekey (RSA PEM)", `key:\n${rsaKey()}\nend`, PLANTED.rsaKeyBody],
];

describe("secret scanning", () => {
  it.each(RULES)("%s: found, and redacted completely", async (_rule, text, secret) => {
    const findings = await scanOne(text);
    expect(findings.length, text).toBeGreaterThan(0);
    const redacted = redactText(text, findings);
    expect(redacted).toMatch(/\[REDACTED:[a-z-]+\]/);
    expect(redacted).not.toContain(secret);
    // No tail of the secret survives either (the AWS rule's range stops short of the key's end).
    expect(redacted).not.toContain(secret.slice(-8));
  });

  it("names the rule in the marker", async () => {
    const text = `a ${PLANTED.ghp} b`;
    expect(redactText(text, await scanOne(text))).toBe("a [REDACTED:github] b");
  });

  it("replaces every occurrence, and merges overlapping findings without leaving fragments", () => {
    expect(redactText("x SECRET y SECRET", [{ rule: "r", value: "SECRET" }])).toBe("x [REDACTED:r] y [REDACTED:r]");
    expect(
      redactText("aaBBBBcc", [
        { rule: "one", value: "aaBBBB" },
        { rule: "two", value: "BBBBcc" },
      ]),
    ).toBe("[REDACTED:one]");
  });

  it("the entropy detector is off by default and catches a random token when on", async () => {
    const text = `session ${PLANTED.random} expired`;
    expect(await scanOne(text)).toEqual([]);
    const findings = await scanOne(text, true);
    expect(findings).toEqual([{ field: "before", rule: "entropy", value: PLANTED.random }]);
  });

  it("the entropy detector catches nearly every random 24-character token", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const tokens = Array.from({ length: 200 }, () => Array.from(randomBytes(24), (b) => alphabet[b % alphabet.length]).join(""));
    const caught = tokens.filter((t) => looksRandom(t)).length;
    expect(caught / tokens.length).toBeGreaterThan(0.9);
  });

  it.each([
    "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
    "sha256:0f343b0931126a20f133d67c2b018a3b5e0b7d1ff7e2fa4eba6b4cd4a3d4f2d8",
    "measure at 2026-12-01T09:00:00Z",
    "see https://grafana.example.com/d/export-retries/nightly?orgId=1",
    "NightlyExportRetriesFailedUploads and internationalization",
    "ReceiptCreateInputV1Schema is the input",
    "550e8400-e29b-41d4-a716-446655440000",
  ])("ordinary receipt text is not a secret, even with entropy on: %s", async (text) => {
    expect(await scanOne(text, true)).toEqual([]);
  });

  it("attributes a secret to every field it occurs in, scanning all fields in one pass", async () => {
    const findings = await findSecrets(
      [
        { field: "title", value: `leak ${PLANTED.npm}` },
        { field: "before", value: "nothing here" },
        { field: "evidence.0.label", value: PLANTED.npm },
      ],
      { entropy: false },
    );
    expect(findings.map((f) => f.field).sort()).toEqual(["evidence.0.label", "title"]);
  });
});
