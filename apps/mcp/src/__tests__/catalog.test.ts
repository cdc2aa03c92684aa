import { createLogger, ERROR_CODES, jsonSchemaOf, OPERATIONS, operationNames, ReceiptFields } from "@cairn/core";
import { describe, expect, it } from "vitest";
import { failureKind, toolFailure } from "../adapter.js";
import { toolDefinitions } from "../catalog.js";
import { RPC_INTERNAL, RpcError } from "../rpc.js";
import { NOT_TOOLS } from "../tools.js";

type Json = Record<string, any>;
const tool = (name: string) => toolDefinitions().find((t) => t.name === name) as Json;

/** Every property at any depth (through items and anyOf), by dotted path. */
function properties(schema: Json, prefix = ""): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  for (const [key, prop] of Object.entries<Json>(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.push([path, prop]);
    const nested = [prop, ...(prop.anyOf ?? [])].filter((s): s is Json => s?.type === "object");
    for (const n of nested) out.push(...properties(n, path));
    if (prop.items?.type === "object") out.push(...properties(prop.items, `${path}.*`));
  }
  return out;
}

describe("MCP tool catalog", () => {
  it("offers every operation NOT_TOOLS does not hold back, and no administration", () => {
    for (const name of Object.keys(NOT_TOOLS)) expect(operationNames()).toContain(name);
    expect(toolDefinitions().map((t) => t.name)).toEqual([
      "receipt_create",
      "artifact_create",
      "artifact_read",
      "artifact_search",
      "run_create",
      "run_append_spans",
      "run_close",
      "run_read",
      "drops_list",
      "doctor",
      "status",
      "policy_get",
      "policy_set",
    ]);
    for (const admin of ["user_create", "token_create", "me", "team_create", "team_member_add"]) expect(tool(admin)).toBeUndefined();
  });

  it("describes every receipt field, nested ones included, in receipt_create's input schema", () => {
    const schema = tool("receipt_create").inputSchema;
    const names = Object.keys(schema.properties);
    for (const field of [...Object.keys(ReceiptFields.shape), "title", "details", "tags", "model", "owner"]) {
      expect(names, field).toContain(field);
    }
    const all = properties(schema);
    expect(all.map(([path]) => path)).toEqual(
      expect.arrayContaining(["evidence.*.label", "evidence.*.url", "outcome.status", "outcome.measure_at", "remaining.*.owner"]),
    );
    for (const [path, prop] of all) {
      expect(typeof prop.description === "string" && prop.description.length > 20, `${path} has no useful description`).toBe(true);
    }
    expect(schema.required).toEqual(["changed", "affected", "before", "after", "evidence", "outcome", "remaining", "learned"]);
    expect(schema.properties.learned.description).toContain("nothing new");
    expect(schema.properties.human_action.description).toContain('defaults to "Nothing"');
  });

  it("uses the same field schemas as the published JSON Schema (one source of truth)", () => {
    const published = jsonSchemaOf("cairn.receipt/v1") as Json;
    expect(tool("receipt_create").inputSchema.properties).toEqual(published.properties);
    expect(tool("receipt_create").description).toBe(OPERATIONS.receipt_create.description);
  });

  it("gives every tool self-contained object schemas for input and output", () => {
    for (const t of toolDefinitions()) {
      expect(t.inputSchema.type, t.name).toBe("object");
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(JSON.stringify(t), t.name).not.toMatch(/\$ref|\$defs|\$schema/);
    }
    const out = tool("receipt_create").outputSchema;
    expect(out.required).toEqual(expect.arrayContaining(["id", "url", "checksum", "expires_at", "body", "provenance"]));
    expect(tool("artifact_read").annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tool("receipt_create").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it("titles and annotates every tool from the registry: reads are read-only, writes say whether they repeat", () => {
    for (const t of toolDefinitions()) {
      const op = OPERATIONS[t.name as keyof typeof OPERATIONS];
      expect(t.title, t.name).toBe(op.title);
      expect(t.annotations, t.name).toEqual({
        title: op.title,
        readOnlyHint: !op.mutates,
        destructiveHint: op.mutates && op.destructive,
        idempotentHint: op.idempotent,
        openWorldHint: false,
      });
    }
    expect(tool("receipt_create").annotations).toMatchObject({ title: "Leave a receipt", idempotentHint: false });
    expect(tool("run_close").annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(tool("policy_set").annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
  });
});

describe("MCP error mapping", () => {
  it("makes what a caller can fix (or retry) a tool error, and only unauthenticated and internal protocol errors", () => {
    const protocol = ERROR_CODES.filter((code) => failureKind(code) === "protocol");
    expect(protocol).toEqual(["unauthenticated", "internal"]);
  });

  it("never sends an unexpected error's message, and logs it", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => void lines.push(l) });
    let thrown: unknown;
    try {
      toolFailure(new Error("password=hunter2 at db.internal"), log, "artifact_read");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    const rpc = thrown as RpcError;
    expect(rpc.code).toBe(RPC_INTERNAL);
    expect(JSON.stringify({ message: rpc.message, data: rpc.data })).not.toContain("hunter2");
    expect(rpc.data).toEqual({ error: { code: "internal", message: rpc.message } });
    expect(lines).toHaveLength(1);
    expect(lines.join("\n")).not.toContain("hunter2");
  });
});
