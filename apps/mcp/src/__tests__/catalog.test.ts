import { CairnError, createLogger, ERROR_CODES, jsonSchemaOf, OPERATIONS, operationNames, ReceiptFields } from "@cairn/core";
import { describe, expect, it } from "vitest";
import { failureKind, requestErrorCode, toolFailure } from "../adapter.js";
import { toolDefinitions } from "../catalog.js";
import { RPC_INTERNAL, RPC_UNAUTHENTICATED, RpcError } from "../rpc.js";
import { isToolName, notToolReason } from "../tools.js";

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
  it("offers every operation core does not keep off MCP (notOn.mcp, with a reason), and no administration", () => {
    const held = operationNames().filter((name) => !isToolName(name));
    expect(held.every((name) => (notToolReason(name) ?? "").length > 0)).toBe(true);
    expect(held).toEqual(expect.arrayContaining(["me", "user_create", "token_create", "keys_rotate", "artifact_acknowledge", "artifact_decide"]));
    expect(toolDefinitions().map((t) => t.name)).toEqual([
      "receipt_create",
      "artifact_create",
      "artifact_read",
      "artifact_search",
      "artifact_assign",
      "artifact_transfer",
      "comment_create",
      "comment_list",
      "run_create",
      "run_append_spans",
      "run_close",
      "run_read",
      "run_list",
      "drops_list",
      "doctor",
      "status",
      "policy_get",
      "policy_set",
      "subscription_list",
      "inbox_list",
      "outcomes_list",
      "decision_wait",
      "keys_list",
      "receipt_verify",
    ]);
    for (const admin of ["user_create", "token_create", "me", "team_create", "team_member_add", "keys_rotate"]) expect(tool(admin)).toBeUndefined();
    // An outbound target is a person's decision: agents see subscriptions, nothing more.
    for (const name of operationNames().filter((n) => n.startsWith("subscription_") && n !== "subscription_list")) {
      expect(tool(name), name).toBeUndefined();
    }
    // Only a person can say they saw what a receipt asks (ADR 0017).
    expect(tool("artifact_acknowledge")).toBeUndefined();
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
    const { schema: _offered, ...fields } = published.properties;
    expect(tool("receipt_create").inputSchema.properties).toEqual(fields);
    expect(tool("receipt_create").description).toBe(OPERATIONS.receipt_create.description);
  });

  it("does not offer a model the `schema` input, which has one valid value", () => {
    const schema = tool("receipt_create").inputSchema;
    expect(Object.keys(schema.properties)).not.toContain("schema");
    expect(jsonSchemaOf("cairn.receipt/v1")).toHaveProperty("properties.schema");
  });

  it("states the outcome rules and the three-word rule in the schema a model fills, with examples", () => {
    const { properties } = tool("receipt_create").inputSchema;
    const outcome = properties.outcome;
    // One shape per status, each naming the field that status requires.
    expect(outcome.allOf).toEqual([
      {
        anyOf: [
          { properties: { status: { const: "measured" }, summary: true }, required: ["status", "summary"] },
          { properties: { status: { const: "pending" }, measure_at: true }, required: ["status", "measure_at"] },
          { properties: { status: { const: "not_applicable" } }, required: ["status"] },
        ],
      },
    ]);
    expect(outcome.examples.map((e: Json) => e.status)).toEqual(["measured", "pending", "not_applicable"]);
    const threeWords = new RegExp(properties.changed.pattern);
    expect(["Fixed", "Fixed it"].map((t) => threeWords.test(t))).toEqual([false, false]);
    expect(threeWords.test("Nightly export retries")).toBe(true);
    expect(properties.changed.examples[0]).toMatch(threeWords);
    expect(properties.changed.minLength).toBe(1);
    const url = new RegExp(properties.evidence.items.properties.url.pattern);
    expect(["https://x.test/a", "mcp://cairn/artifacts/art_01jd8x3q5v7w9y2b4c6d8f0g1h"].every((u) => url.test(u))).toBe(true);
    expect(["javascript:alert(1)", "mcp://cairn/runs/x", "mcp://cairn/artifacts/art_1"].some((u) => url.test(u))).toBe(false);
    expect(new RegExp(outcome.properties.measure_at.pattern).test("2026-12-08")).toBe(true);
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

  it("carries a tool error as JSON text and in _meta, never as structuredContent", () => {
    const result = toolFailure(new CairnError("not_found", "No artifact with that id is visible to you."), createLogger({ write: () => {} }), "artifact_read");
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify({ error: { code: "not_found", message: "No artifact with that id is visible to you." } }) }],
      isError: true,
      _meta: { "cairn.dev/error": { code: "not_found", message: "No artifact with that id is visible to you." } },
    });
  });

  it("maps every code for requests without a tool-error channel", () => {
    expect(Object.fromEntries(ERROR_CODES.map((c) => [c, requestErrorCode(c)]))).toMatchObject({
      not_found: -32602,
      gone: -32602,
      validation_failed: -32602,
      unauthenticated: RPC_UNAUTHENTICATED,
      internal: RPC_INTERNAL,
    });
  });
});
