import { describe, expect, it } from "vitest";
import { PLANTED } from "../../secrets/__tests__/planted.js";
import { fullReceipt, minimalReceipt } from "../../testing/receipts.js";
import { prepareReceipt, prepareRedactedReceipt } from "../prepare.js";
import { redactReceipt } from "../redact.js";
import { validateReceiptInput } from "../validate.js";

const valid = (raw: Record<string, unknown>) => {
  const v = validateReceiptInput(raw);
  if (!v.ok) throw new Error(JSON.stringify(v.rejection));
  return v.value;
};

const token = PLANTED.ghp;

describe("redactReceipt", () => {
  it("redacts every persisted string: title, answers, evidence labels and urls, remaining, details, tags, model", async () => {
    const raw = fullReceipt({
      title: `Title ${token}`,
      changed: `Rotated the key ${token}`,
      affected: token,
      before: `was ${token}`,
      after: `now not ${token}`,
      evidence: [{ label: `label ${token}`, url: `https://ci.example.com/${token}` }],
      evidence_note: token,
      outcome: { status: "measured", summary: `measured ${token}` },
      human_action: `revoke ${token}`,
      remaining: [{ item: `item ${token}`, owner: `owner ${token}` }],
      learned: `learned ${token}`,
      details: `details ${token}`,
      tags: ["export", token.toLowerCase()],
      model: `model-${token}`,
    });
    const { receipt, redactions } = await redactReceipt(valid(raw), { entropy: false });
    expect(JSON.stringify(receipt)).not.toContain(token);
    expect(JSON.stringify(receipt).toLowerCase()).not.toContain(token.toLowerCase());
    expect(receipt.metadata.before).toBe("was [REDACTED:github]");
    expect(receipt.tags).toEqual(["export", "redacted:github", "receipt"]);
    expect(redactions.map((r) => r.field).sort()).toEqual(
      [
        "title",
        "changed",
        "affected",
        "before",
        "after",
        "evidence.0.label",
        "evidence.0.url",
        "evidence_note",
        "outcome.summary",
        "human_action",
        "remaining.0.item",
        "remaining.0.owner",
        "learned",
        "details",
        "tags.1",
        "model",
      ].sort(),
    );
    expect(new Set(redactions.map((r) => r.rule))).toEqual(new Set(["github"]));
  });

  it("scans tags as sent, before lowercasing: an AWS key id in a tag is redacted", async () => {
    const { receipt, redactions } = await redactReceipt(valid(minimalReceipt({ tags: ["Export", PLANTED.awsKeyId] })), {
      entropy: false,
    });
    expect(receipt.tags).toEqual(["export", "redacted:aws", "receipt"]);
    expect(JSON.stringify(receipt).toLowerCase()).not.toContain(PLANTED.awsKeyId.toLowerCase());
    expect(redactions).toEqual([{ field: "tags.1", rule: "aws" }]);
  });

  it("derives the title again from the redacted `changed`, so no cut-off piece of a secret survives", async () => {
    const changed = `${"Moved the nightly export to the new bucket and ".repeat(2)}${token}`;
    const { receipt, redactions } = await redactReceipt(valid(minimalReceipt({ changed })), { entropy: false });
    expect(receipt.title).not.toContain(token.slice(0, 6));
    expect(receipt.title.length).toBeLessThanOrEqual(120);
    expect(redactions).toContainEqual({ field: "title", rule: "github" });
  });

  it("leaves a clean receipt untouched", async () => {
    const { sentTags: _, ...v } = valid(fullReceipt());
    const result = await redactReceipt(v, { entropy: true });
    expect(result.receipt).toEqual(v);
    expect(result.redactions).toEqual([]);
  });

  it("prepareRedactedReceipt renders the redacted body; prepareReceipt does not scan", async () => {
    const raw = minimalReceipt({ before: `The token was ${token}.` });
    const redacted = await prepareRedactedReceipt(raw);
    expect(redacted.ok).toBe(true);
    if (!redacted.ok) return;
    expect(redacted.value.body).toContain("The token was [REDACTED:github].");
    expect(redacted.value.body).not.toContain(token);
    expect(redacted.redactions).toEqual([{ field: "before", rule: "github" }]);
    const plain = prepareReceipt(raw);
    expect(plain.ok && plain.value.body).toContain(token);
  });
});
