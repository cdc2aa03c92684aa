import { CairnError, type Surface } from "@cairn/core";
import { z } from "zod";

/**
 * The surface recorded in provenance is decided by the server: a request through REST is
 * `rest`. The `cairn` CLI is a REST client, so it says so with this header; `cli` is the
 * only value a client may claim (MCP and web set their own surface server-side), and an
 * unknown value is refused rather than silently recorded as something else.
 */
const SURFACE_HEADER = "X-Cairn-Surface";

const CLAIMABLE: Record<string, Surface> = { cli: "cli", rest: "rest" };

export const SurfaceHeaders = z.object({
  "x-cairn-surface": z
    .enum(["cli", "rest"])
    .optional()
    .describe("Which client made the request, recorded in provenance.surface. `cli` for the cairn command; default `rest`."),
});

export function surfaceOf(header: string | undefined): Surface {
  const value = header?.trim().toLowerCase();
  if (value === undefined || value === "") return "rest";
  const surface = CLAIMABLE[value];
  if (surface) return surface;
  throw new CairnError("validation_failed", `${SURFACE_HEADER}: must be cli or rest`, {
    issues: [{ field: SURFACE_HEADER, reason: "must be cli or rest" }],
  });
}
