import { describe, expect, it } from "vitest";
import { LIMITS } from "../../limits.js";
import { findSecrets, redactText, SCAN_OVERLAP, SCAN_WINDOW } from "../scan.js";
import { PLANTED, rsaKey } from "./planted.js";

/** A distinct, valid-looking GitHub token per index (36 characters after the prefix). */
const ghp = (i: number) => `ghp_${String(i).padStart(8, "0")}${PLANTED.ghp.slice(4, 32)}`;
/** How long fn took, and how it ended: a timing check means nothing unless the work ended the way the test expects. */
const time = async (fn: () => Promise<unknown>): Promise<{ ms: number; refusal: unknown }> => {
  const started = performance.now();
  let refusal: unknown = null;
  await fn().catch((err: unknown) => {
    refusal = err;
  });
  return { ms: performance.now() - started, refusal };
};
const HIT_LIMIT_REFUSAL = { code: "validation_failed", issues: [{ field: "(input)", limit: LIMITS.secretHits }] };

describe("secret scanning is bounded (LIMITS.scanChars, LIMITS.secretHits)", () => {
  it("refuses more text than LIMITS.scanChars, naming the limit, without scanning it", async () => {
    const value = "a".repeat(LIMITS.scanChars + 1);
    await expect(findSecrets([{ field: "body", value }], { entropy: true })).rejects.toMatchObject({
      code: "validation_failed",
      issues: [{ field: "(input)", limit: LIMITS.scanChars }],
    });
  });

  it("stops past LIMITS.secretHits occurrences and refuses, naming the limit", async () => {
    const fields = Array.from({ length: LIMITS.secretHits + 1 }, (_, i) => ({ field: `f${i}`, value: ghp(i) }));
    await expect(findSecrets(fields, { entropy: false })).rejects.toMatchObject({
      issues: [{ field: "(input)", limit: LIMITS.secretHits }],
    });
    // Exactly the limit is still scanned and attributed field by field.
    const ok = await findSecrets(fields.slice(0, LIMITS.secretHits), { entropy: false });
    expect(ok).toHaveLength(LIMITS.secretHits);
  });

  it("costs time linear in the number of token-like strings, not its square", async () => {
    const body = (n: number) => [{ field: "details", value: Array.from({ length: n }, (_, i) => ghp(i)).join(" ") }];
    await findSecrets(body(10), { entropy: false }); // load secretlint
    const small = await time(() => findSecrets(body(1_500), { entropy: true }));
    const large = await time(() => findSecrets(body(15_000), { entropy: true }));
    // Both are refused at the hit limit, and early: 10x the strings must not cost anything like 100x (it cost 25 s before).
    expect(small.refusal).toMatchObject(HIT_LIMIT_REFUSAL);
    expect(large.refusal).toMatchObject(HIT_LIMIT_REFUSAL);
    expect(large.ms).toBeLessThan(Math.max(50, small.ms * 20));
    expect(large.ms).toBeLessThan(500);
  });

  it("scans the whole text it accepts in time linear in its size", async () => {
    const prose = "The export retries failed uploads; see run 4812 for the numbers. ".repeat(16_000).slice(0, LIMITS.scanChars);
    await findSecrets([{ field: "x", value: "warm" }], { entropy: false });
    const scanned = await time(() => findSecrets([{ field: "details", value: prose }], { entropy: true }));
    expect(scanned.refusal).toBeNull();
    expect(scanned.ms).toBeLessThan(1_000);
  });

  it("finds a secret that straddles a window boundary in a long field, and one in the last field", async () => {
    for (const offset of [SCAN_WINDOW - 10, SCAN_WINDOW - SCAN_OVERLAP + 3, 3 * SCAN_WINDOW]) {
      const value = `${"x ".repeat(offset / 2)}${PLANTED.ghp} and then ${"y ".repeat(SCAN_WINDOW)}`;
      const findings = await findSecrets([{ field: "details", value }], { entropy: false });
      expect(findings, String(offset)).toEqual([{ field: "details", rule: "github", value: PLANTED.ghp }]);
    }
    const key = `${"z ".repeat(SCAN_WINDOW / 2 - 1_000)}${rsaKey()}`;
    const findings = await findSecrets(
      [
        { field: "a", value: "clean" },
        { field: "b", value: key },
      ],
      { entropy: false },
    );
    expect(redactText(key, findings)).not.toContain(PLANTED.rsaKeyBody);
  });

  it("attributes secrets in packed windows to the right fields", async () => {
    const fields = Array.from({ length: 400 }, (_, i) => ({ field: `f${i}`, value: i % 97 === 5 ? ghp(i) : `plain text ${i}` }));
    const found = await findSecrets(fields, { entropy: false });
    expect(found.map((f) => f.field).sort()).toEqual(["f102", "f199", "f296", "f393", "f5"]);
  });
});
