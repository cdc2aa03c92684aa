import type { FieldInfo, OperationName } from "@cairn/core";
import { type CliTable, type OperationMeta, TABLE } from "./table.js";

export type { CliTable, OperationMeta };

/**
 * Reads the table from core (its schemas through zod's JSON Schema): what the build writes
 * into dist, and what a run from source uses. Tests compare the built table with it.
 */
export async function liveTable(): Promise<CliTable> {
  const [{ HUMAN_ACTION_LABEL, OPERATIONS, SCHEMA_REGISTRY, fieldsOf, isOfferedOn, operationNames }, sdk] = await Promise.all([
    import("@cairn/core"),
    import("@modelcontextprotocol/server"),
  ]);
  const operations: CliTable["operations"] = {};
  for (const name of operationNames()) {
    const op = OPERATIONS[name];
    operations[name] = { description: op.description, mutates: op.mutates, onCli: isOfferedOn(op, "cli"), fields: fieldsOf(op.input) };
  }
  return {
    operations,
    receiptDescription: SCHEMA_REGISTRY["cairn.receipt/v1"].description,
    humanActionLabel: HUMAN_ACTION_LABEL,
    mcpProtocol: { latest: sdk.LATEST_PROTOCOL_VERSION, supported: [...sdk.SUPPORTED_PROTOCOL_VERSIONS] },
  };
}

/** The built table, or the registry as this process has it (from source, or an operation added after the build). */
async function tableFor(name?: string): Promise<CliTable> {
  if (TABLE && (name === undefined || Object.hasOwn(TABLE.operations, name))) return TABLE;
  return liveTable();
}

export async function operationMeta(name: OperationName): Promise<OperationMeta> {
  const meta = (await tableFor(name)).operations[name];
  if (!meta) throw new Error(`no operation ${name}`);
  return meta;
}

/** Every operation name, in the registry's order. */
export async function operationNamesOf(): Promise<OperationName[]> {
  return Object.keys((await tableFor()).operations) as OperationName[];
}

export async function humanActionLabel(): Promise<string> {
  return (await tableFor()).humanActionLabel;
}

export async function receiptDescription(): Promise<string> {
  return (await tableFor()).receiptDescription;
}

export async function mcpProtocol(): Promise<CliTable["mcpProtocol"]> {
  return (await tableFor()).mcpProtocol;
}

/** A field of an operation's input, as the schema describes it. */
export function fieldOf(meta: OperationMeta, field: string): FieldInfo {
  const info = meta.fields.find((f) => f.name === field);
  if (!info) throw new Error(`the operation's input has no field ${field}`);
  return info;
}
