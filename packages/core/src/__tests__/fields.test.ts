import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldsOf } from "../fields.js";
import { PolicySetInput } from "../policy/schemas.js";
import { ReceiptCreateInput } from "../receipt/schemas.js";

describe("fieldsOf (from the public JSON Schema)", () => {
  it("reads kind, description, requiredness and choices through optional wrappers and component ids", () => {
    const input = z
      .strictObject({
        name: z.string().describe("A name."),
        count: z.coerce.number().int().optional().describe("How many."),
        on: z.boolean().default(false).describe("Whether."),
        mode: z.enum(["a", "b"]).describe("Which."),
        tags: z.array(z.string()).optional().describe("Tags."),
        shape: z.object({ x: z.number() }).describe("A shape."),
      })
      .meta({ id: "FieldsOfProbe" });
    expect(fieldsOf(input)).toEqual([
      { name: "name", kind: "string", description: "A name.", required: true },
      { name: "count", kind: "number", description: "How many.", required: false },
      { name: "on", kind: "boolean", description: "Whether.", required: false },
      { name: "mode", kind: "string", description: "Which.", required: true, choices: ["a", "b"] },
      { name: "tags", kind: "list", description: "Tags.", required: false },
      { name: "shape", kind: "json", description: "A shape.", required: true },
    ]);
  });

  it("describes every receipt field and every policy key with the schema's own text", () => {
    for (const f of [...fieldsOf(ReceiptCreateInput), ...fieldsOf(PolicySetInput)]) expect(f.description.length, f.name).toBeGreaterThan(10);
    expect(fieldsOf(PolicySetInput).find((f) => f.name === "secrets")?.choices).toEqual(["redact", "block"]);
  });
});
