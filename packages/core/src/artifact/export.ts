import { z } from "zod";
import type { ServiceContext } from "../context.js";
import { RECEIPT_SCHEMA_ID } from "../receipt/schemas.js";
import { DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, signEnvelope } from "../signing/dsse.js";
import { decisionStatementOf, statementOf } from "../signing/in-toto.js";
import { ensureSigningKey } from "../signing/keys.js";
import { Artifact, type ArtifactExportInput } from "./schemas.js";
import { searchFullArtifacts, searchRows } from "./search.js";

/**
 * Bodies can be large (up to the artifact limit), so an export page is smaller than the
 * largest search page: a streaming surface holds one page in memory at a time.
 */
export const EXPORT_PAGE_SIZE = 100;

export const ArtifactExportPage = z
  .object({
    items: z.array(z.union([Artifact, DsseEnvelope])).describe("Artifact objects (ndjson) or DSSE envelopes (in-toto)."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "ArtifactExportPage", description: "One page of an export, newest first." });

/** The bytes an in-toto line signs: the Statement as JSON, keys in their fixed order. */
export const statementBytes = (statement: ReturnType<typeof statementOf> | NonNullable<ReturnType<typeof decisionStatementOf>>) =>
  Buffer.from(JSON.stringify(statement), "utf8");

/**
 * One page of an export: what search lists for the same owner scope and tag, newest
 * first, with the same keyset cursor. Surfaces that stream walk the pages with `pagesOf`.
 * `in-toto` covers receipts (their body is re-rendered from the predicate), each signed
 * with the server's active key; a receipt whose ask is settled is followed by its decision's line.
 */
export async function exportArtifacts(ctx: ServiceContext, input: z.output<typeof ArtifactExportInput>): Promise<z.output<typeof ArtifactExportPage>> {
  const { format = "ndjson", ...page } = input;
  if (format === "ndjson") return searchFullArtifacts(ctx, { ...page, limit: EXPORT_PAGE_SIZE });
  const { rows, next_cursor } = await searchRows(ctx, { ...page, schema: RECEIPT_SCHEMA_ID, limit: EXPORT_PAGE_SIZE });
  const key = await ensureSigningKey(ctx.store, ctx.now());
  // A settled ask follows its receipt as its own signed line (SPEC §32): the receipt's bytes never change.
  const items = rows.flatMap((row) => {
    const decision = decisionStatementOf(row);
    const receipt = signEnvelope(statementBytes(statementOf(row)), IN_TOTO_PAYLOAD_TYPE, key);
    return decision ? [receipt, signEnvelope(statementBytes(decision), IN_TOTO_PAYLOAD_TYPE, key)] : [receipt];
  });
  return { items, next_cursor };
}
