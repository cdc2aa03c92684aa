import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { ArtifactExportInput, ArtifactList } from "./schemas.js";
import { searchFullArtifacts } from "./search.js";

/**
 * Bodies can be large (up to the artifact limit), so an export page is smaller than the
 * largest search page: a streaming surface holds one page in memory at a time.
 */
export const EXPORT_PAGE_SIZE = 100;

/**
 * One page of an export: what search lists for the same owner scope and tag, newest
 * first, with the same keyset cursor. Surfaces that stream walk the pages with `pagesOf`.
 */
export function exportArtifacts(
  ctx: ServiceContext,
  input: z.output<typeof ArtifactExportInput>,
): Promise<z.output<typeof ArtifactList>> {
  return searchFullArtifacts(ctx, { ...input, limit: EXPORT_PAGE_SIZE });
}
