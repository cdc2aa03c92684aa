import type { FieldInfo } from "@cairn/core";

/** What a command needs to know of an operation: its one-line description, whether it writes, its input's fields, and whether the CLI shows it (core's `notOn.cli`). */
export interface OperationMeta {
  description: string;
  mutates: boolean;
  onCli: boolean;
  fields: FieldInfo[];
}

/** Everything the commands read from core's registry and schemas to build their flags and help. */
export interface CliTable {
  /** Every operation, in the registry's order. */
  operations: { [name: string]: OperationMeta };
  /** cairn.receipt/v1's description in the schema registry (`cairn receipt --help`). */
  receiptDescription: string;
  /** The words in front of a receipt's stored human action (`You need to do`): the renderers' alone (SPEC §20). */
  humanActionLabel: string;
  /** The MCP revisions the pinned SDK speaks, and its newest (`cairn mcp` negotiates with them as the SDK's Server does). */
  mcpProtocol: { latest: string; supported: string[] };
}

/**
 * Core's metadata the commands are spelled from, written here by the build
 * (`scripts/bundle.mjs` replaces dist/table.js with `liveTable()`'s answer),
 * so the built `cairn` parses a command line without loading core's schemas. Running from
 * source it is null and the commands read core itself; the same code either way.
 */
export const TABLE: CliTable | null = null;
