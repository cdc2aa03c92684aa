import { describe, expect, it } from "vitest";
import { OPERATIONS, operationNames } from "../../runtime/registry.js";
import { isOfferedOn, OPTIONAL_SURFACES } from "../define.js";

describe("which surfaces show an operation is the operation's own attribute", () => {
  it("every surface an operation leaves out is an optional one, with the reason", () => {
    for (const name of operationNames()) {
      for (const [surface, reason] of Object.entries(OPERATIONS[name].notOn)) {
        expect(OPTIONAL_SURFACES, `${name}.notOn`).toContain(surface);
        expect(reason?.length, `${name}.notOn.${surface}`).toBeGreaterThan(10);
      }
    }
  });

  it("administration and a person's decisions stay off MCP; plain artifacts stay off the CLI; receipts are everywhere", () => {
    for (const name of ["me", "user_create", "token_create", "keys_rotate", "artifact_acknowledge", "subscription_create", "artifact_retain"] as const) {
      expect(isOfferedOn(OPERATIONS[name], "mcp"), name).toBe(false);
    }
    expect(OPERATIONS.artifact_create.notOn).toEqual({ cli: expect.stringContaining("receipts") });
    expect(OPERATIONS.receipt_create.notOn).toEqual({});
  });
});
