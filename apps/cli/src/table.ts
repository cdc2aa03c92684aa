import type { CliTable } from "./metadata.js";

/**
 * Core's metadata the commands are spelled from, written here by the build
 * (`scripts/bundle.mjs` replaces dist/table.js with `liveTable()`'s answer),
 * so the built `cairn` parses a command line without loading core's schemas. Running from
 * source it is null and the commands read core itself; the same code either way.
 */
export const TABLE: CliTable | null = null;
