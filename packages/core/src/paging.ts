import { z } from "zod";
import { LIMITS } from "./limits.js";
import { storableString } from "./text.js";

/** The `cursor` and `limit` every list input takes (SPEC §13: default 50, max 200). */
export const PAGE_FIELDS = {
  cursor: storableString().max(LIMITS.cursor).optional().describe("`next_cursor` from the previous page."),
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).optional().describe(`Page size, 1-${LIMITS.pageMax}; default ${LIMITS.pageDefault}.`),
};
