import { z } from "zod";
import { LIMITS } from "../limits.js";
import { storableId, storableString } from "../text.js";

export const VERIFY_CHECKS = ["payload", "key", "signature", "checksum"] as const;
export type VerifyCheckName = (typeof VERIFY_CHECKS)[number];

export const VerifyInput = z
  .strictObject({
    id: storableId(64, "Artifact id.").optional().describe("Verify a stored artifact you can read: re-render its body and compare checksums."),
    line: storableString()
      .min(1)
      .max(LIMITS.requestBytes)
      .optional()
      .describe("Verify one line of an in-toto export (a DSSE envelope): payload, key, signature and checksum."),
  })
  .superRefine((v, ctx) => {
    if ((v.id === undefined) === (v.line === undefined)) {
      ctx.addIssue({ code: "custom", path: ["id"], message: "give exactly one of id or line" });
    }
  })
  .meta({ id: "VerifyInput", description: "What to verify: a stored artifact by id, or one exported line." });

export const VerifyCheck = z.object({
  name: z
    .enum(VERIFY_CHECKS)
    .describe(
      "payload (the envelope and Statement are well formed), key (the keyid is a published key), signature (DSSE, Ed25519), checksum (the re-rendered body matches).",
    ),
  status: z.enum(["pass", "fail", "skipped"]).describe("`skipped` when an earlier check failed or it does not apply."),
  detail: z.string().describe("What was found."),
});
export type VerifyCheck = z.infer<typeof VerifyCheck>;

export const VerifyResult = z
  .object({
    valid: z.boolean().describe("Whether every check that applies passed."),
    id: z.string().nullable().describe("The artifact id the receipt names, when it could be read."),
    failed: z.enum(VERIFY_CHECKS).nullable().describe("The first check that failed, or null."),
    checks: z.array(VerifyCheck).describe("Every check, in order."),
  })
  .meta({ id: "VerifyResult", description: "The outcome of receipt_verify, naming the check that failed." });
export type VerifyResult = z.infer<typeof VerifyResult>;
