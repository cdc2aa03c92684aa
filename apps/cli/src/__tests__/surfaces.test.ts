import { OPERATIONS, operationNames } from "@cairn/core";
import { isToolName } from "@cairn/mcp";
import { describe, expect, it } from "vitest";
import { cliCommandOf } from "../commands/index.js";

describe("MCP and the CLI show exactly the operations core says they show", () => {
  it.each(operationNames())("%s", async (name) => {
    const op = OPERATIONS[name];
    expect(isToolName(name), "an MCP tool").toBe(op.notOn.mcp === undefined);
    expect((await cliCommandOf(name)) !== null, "a CLI command").toBe(op.notOn.cli === undefined);
  });
});
