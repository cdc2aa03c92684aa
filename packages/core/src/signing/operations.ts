import type { z } from "zod";
import { findArtifact, isExpired } from "../artifact/internal.js";
import { gone } from "../artifact/read.js";
import type { ServiceContext } from "../context.js";
import { forbidden, notFound } from "../errors.js";
import { authorizeRead } from "../identity/authorize.js";
import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import type { Store } from "../store/port.js";
import { listPublicKeys, rotateSigningKey } from "./keys.js";
import { Jwk, Jwks, KeysListInput, KeysRotateInput } from "./schemas.js";
import { verifyLine, verifyStored } from "./verify.js";
import { VerifyInput, VerifyResult } from "./verify-schemas.js";

async function verifyReceipt(ctx: ServiceContext, input: { id?: string | undefined; line?: string | undefined }): Promise<z.output<typeof VerifyResult>> {
  if (input.line !== undefined) return verifyLine(input.line, (await listPublicKeys(ctx.store)).keys);
  const row = await findArtifact(ctx.store, input.id ?? "");
  if (!row || !authorizeRead({ kind: "principal", principal: ctx.principal }, row)) throw notFound();
  if (isExpired(row, ctx.now())) throw gone();
  return verifyStored(row);
}

/** This area's group in the API documentation. */
export const SIGNING_TAG = defineApiTag(
  "Signing",
  "Signed receipts: the public verification keys (no token needed), key rotation, and verifying an exported receipt.",
);

/** The server's signing keys and verification of what it signed (SPEC §16). */
export const SIGNING_OPERATIONS = {
  keys_list: {
    ...defineOperation({
      title: "List the signing keys",
      description: "The server's public signing keys as a JWKS (public: no token needed at GET /v1/keys). Retired keys stay listed.",
      input: KeysListInput,
      output: Jwks,
      mutates: false,
      run: (ctx) => listPublicKeys(ctx.store),
    }),
    runPublic: (store: Store) => listPublicKeys(store),
  },
  keys_rotate: defineOperation({
    notOn: { mcp: "administration" },
    title: "Rotate the signing key",
    description: "Retire the active signing key and make a new one (administrators only). Old public keys stay listed, so older exports still verify.",
    input: KeysRotateInput,
    output: Jwk,
    mutates: true,
    permission: "keys:write",
    errors: ["forbidden"],
    run: (ctx) => {
      if (!ctx.principal.user.is_admin) throw forbidden("Only an administrator can rotate the signing key.");
      return rotateSigningKey(ctx.store, ctx.now());
    },
  }),
  receipt_verify: defineOperation({
    title: "Verify a receipt",
    description:
      "Verify a receipt: by `id` (re-render its body from title, metadata and details with the schema's template and compare checksums) or one exported in-toto `line` (also the DSSE signature against the published keys). Names the check that failed.",
    input: VerifyInput,
    output: VerifyResult,
    mutates: false,
    errors: ["not_found", "gone"],
    run: verifyReceipt,
  }),
} as const;
