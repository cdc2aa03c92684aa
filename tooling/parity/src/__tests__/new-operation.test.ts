import { defineOperation, OPERATIONS, type Operation, operationNames } from "@cairn/core";
import { toolDefinitions } from "@cairn/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { operationsWithoutScenario } from "../completeness.js";
import { cliInProcessDriver } from "../drivers/cli-in-process.js";
import { coreDriver } from "../drivers/core.js";
import { mcpHttpDriver } from "../drivers/mcp.js";
import { restDriver } from "../drivers/rest.js";
import { type ParityServer, startParityServer } from "../env.js";
import { runScenario } from "../run.js";
import { SCENARIOS } from "../scenarios.js";

/**
 * An operation added to core's registry and nowhere else — no route, tool or command
 * written for it — is served on REST, listed and callable on MCP, a `cairn` command, and
 * missing from the scenario table until it gets a row.
 */
const NAME = "throwaway_echo";
const echo = defineOperation({
  title: "Echo",
  description: "Echo the text back (exists only in this test).",
  input: z.strictObject({ text: z.string().min(1).max(100).describe("The text to echo back.") }),
  output: z.object({ text: z.string().describe("The same text.") }),
  mutates: false,
  run: (_ctx, input) => ({ text: input.text }),
});
const registry = OPERATIONS as unknown as Record<string, Operation>;

describe("a new operation reaches every surface from the registry alone", () => {
  let parity: ParityServer;
  beforeAll(async () => {
    registry[NAME] = echo;
    parity = await startParityServer("pglite");
  });
  afterAll(async () => {
    await parity?.close();
    delete registry[NAME];
  });

  it("is documented in OpenAPI, with its error statuses", async () => {
    const doc = (await (await fetch(`${parity.server.url}/openapi.json`)).json()) as { paths: Record<string, any>; tags: any[] };
    const get = doc.paths["/v1/throwaway/echo"]?.get;
    expect(get?.operationId).toBe(NAME);
    expect(Object.keys(get?.responses ?? {})).toEqual(["200", "401", "422", "500", "503"]);
    // In a tag the document describes, and behind the bearer token (what linters and SDK generators check).
    expect(get?.tags).toEqual(["Other"]);
    expect(doc.tags.find((t) => t.name === "Other")?.description).toBeTruthy();
    expect(get?.security).toEqual([{ bearer: [] }]);
  });

  it("is an MCP tool titled and annotated from its declaration", () => {
    const tool = toolDefinitions().find((t) => t.name === NAME);
    expect(tool?.title).toBe("Echo");
    expect(tool?.annotations).toEqual({ title: "Echo", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it("answers the same on REST, MCP and the CLI as in core", async () => {
    const env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn), serverUrl: parity.server.cairn.config.publicUrl };
    const url = parity.server.url;
    const drivers = [restDriver(url), mcpHttpDriver(url), cliInProcessDriver(url)];
    const scenario = { name: "echo", expect: "ok" as const, step: { operation: NAME as never, input: { text: "hello" } } };
    const results = await runScenario(env, drivers, scenario);
    for (const d of drivers) await d.close?.();
    expect(results.map((r) => r.problems)).toEqual([[], [], []]);
    expect(results.map((r) => r.result)).toEqual(Array(3).fill({ ok: true, value: { text: "hello" } }));
    const refused = await runScenario(env, drivers, {
      ...scenario,
      name: "echo nothing",
      expect: "validation_failed",
      step: { ...scenario.step, input: { text: "" } },
    });
    expect(refused.map((r) => r.problems)).toEqual([[], [], []]);
  });

  it("is a gap in the parity table until it has a row", () => {
    expect(operationNames()).toContain(NAME);
    expect(operationsWithoutScenario(operationNames(), SCENARIOS)).toEqual([NAME]);
  });
});
