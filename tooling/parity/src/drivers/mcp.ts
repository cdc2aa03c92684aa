import { isPlainObject } from "@cairn/core/json";
import { isToolName } from "@cairn/mcp";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Actor, Driver, Outcome } from "../types.js";
import { cliEnv, requireBuiltCli } from "./cli-bin.js";

/**
 * A create's `resource_link` must name the artifact it answered with; a receipt that asks
 * may end with one more text block telling the agent how to wait for the answer.
 */
function linkProblem(links: CallToolResult["content"], value: Record<string, unknown>): string | null {
  for (const link of links) {
    if (link.type === "text" && link.text.includes("decision_wait") && link === links.at(-1)) continue;
    if (link.type !== "resource_link") return `expected only resource_link blocks after the text, got ${link.type}`;
    if (link.uri !== `mcp://cairn/artifacts/${String(value.id)}`) return `a resource_link names ${link.uri}, not the artifact ${String(value.id)}`;
  }
  return null;
}

/**
 * A tools/call result as an Outcome, checked against the MCP surface's contract: one text
 * block first; a success carries `structuredContent`, the text is exactly its JSON, and
 * any further blocks are resource_links to the stored artifact; a tool error is that one
 * text block, the REST error envelope `{error: {...}}`, mirrored in `_meta`. Anything else
 * throws, which the engine reports against this surface.
 */
export function outcomeOfToolResult(result: CallToolResult): Outcome {
  const [block, ...rest] = result.content;
  if (block?.type !== "text" || (result.isError && rest.length > 0)) {
    throw new Error(`expected one text block first (and only it on an error), got ${JSON.stringify(result.content).slice(0, 300)}`);
  }
  if (result.isError) {
    if (result.structuredContent !== undefined) throw new Error("a tool error carries structuredContent");
    if (JSON.stringify(result._meta?.["cairn.dev/error"]) !== JSON.stringify((JSON.parse(block.text) as { error?: unknown }).error)) {
      throw new Error("a tool error's _meta does not mirror its envelope");
    }
    const envelope: unknown = JSON.parse(block.text);
    if (!isPlainObject(envelope) || Object.keys(envelope).join() !== "error" || !isPlainObject(envelope.error) || typeof envelope.error.code !== "string") {
      throw new Error(`a tool error's text is not the REST error envelope: ${block.text.slice(0, 300)}`);
    }
    return { ok: false, error: envelope.error as never };
  }
  if (result.structuredContent === undefined) throw new Error("a successful call returned no structuredContent");
  if (block.text !== JSON.stringify(result.structuredContent)) {
    throw new Error(`the text block is not the JSON of structuredContent: ${block.text.slice(0, 300)}`);
  }
  const problem = linkProblem(rest, result.structuredContent);
  if (problem) throw new Error(problem);
  return { ok: true, value: result.structuredContent };
}

/**
 * The SDK's Ajv validator, compiling each distinct schema once. Every client lists the
 * same tools, and compiling their output schemas per client cost ~0.1 s a scenario.
 */
function memoisedValidator(): jsonSchemaValidator {
  const ajv = new AjvJsonSchemaValidator();
  const compiled = new Map<string, JsonSchemaValidator<unknown>>();
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const key = JSON.stringify(schema);
      const validator = compiled.get(key) ?? ajv.getValidator(schema);
      compiled.set(key, validator);
      return validator as JsonSchemaValidator<T>;
    },
  };
}

/** What the driver needs of a client, the same in both SDK lines. */
interface McpClient {
  connect(transport: never): Promise<void>;
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** Which SDK line, and so which protocol era: SDK 1.x speaks 2025-11-25; SDK 2 in auto mode negotiates 2026-07-28. */
type Era = "2025" | "2026";

/**
 * An MCP surface through the SDK's own Client: one client per actor, made on first use
 * and closed when the actor's step is done. listTools runs first so the client caches the
 * output schemas and validates every structuredContent against them, as real clients do.
 */
function mcpDriver(name: string, era: Era, transportFor: (actor: Actor) => { transport: unknown; stderr?: () => string }): Driver {
  const clients = new Map<string, Promise<McpClient>>();
  const jsonSchemaValidator = memoisedValidator();
  const newClient = (): McpClient =>
    era === "2025"
      ? new Client({ name: "cairn-parity", version: "1" }, { jsonSchemaValidator })
      : (new Client2({ name: "cairn-parity", version: "2" }, { versionNegotiation: { mode: "auto" } }) as unknown as McpClient);
  const clientFor = (actor: Actor): Promise<McpClient> => {
    let pending = clients.get(actor.token);
    if (!pending) {
      const { transport, stderr } = transportFor(actor);
      const client = newClient();
      pending = client
        .connect(transport as never)
        .then(() => {
          // A 2026 driver that quietly fell back to 2025 would prove nothing about the new revision.
          const negotiated = (client as { getProtocolEra?: () => string }).getProtocolEra?.();
          if (era === "2026" && negotiated !== "modern") throw new Error(`negotiated the ${negotiated} era, not 2026-07-28`);
        })
        .then(() => client.listTools())
        .then(
          () => client,
          async (err: unknown) => {
            await client.close().catch(() => {});
            throw new Error(`${name} could not connect: ${(err as Error).message}${stderr ? `; stderr: ${stderr().trim()}` : ""}`);
          },
        );
      clients.set(actor.token, pending);
    }
    return pending;
  };
  const call = async (actor: Actor, tool: string, args: Record<string, unknown>): Promise<Outcome> => {
    const client = await clientFor(actor);
    return outcomeOfToolResult((await client.callTool({ name: tool, arguments: args })) as CallToolResult);
  };
  const release = async (token: string) => {
    const pending = clients.get(token);
    clients.delete(token);
    const client = await pending?.catch(() => undefined);
    await client?.close();
  };
  return {
    name,
    surface: "mcp",
    // Tool arguments are a JSON object by protocol: input that is not an object cannot be sent.
    call: async (actor, operation, input) => (isToolName(operation) && isPlainObject(input) ? call(actor, operation, input) : null),
    release: (actor) => release(actor.token),
    async close() {
      await Promise.all([...clients.keys()].map(release));
    },
  };
}

/** MCP over Streamable HTTP: `${baseUrl}/mcp` with the actor's bearer token, in either era. */
export function mcpHttpDriver(baseUrl: string, era: Era = "2025"): Driver {
  const init = (actor: Actor) => ({ requestInit: { headers: { Authorization: `Bearer ${actor.token}` } } });
  return mcpDriver(era === "2025" ? "mcp-http" : "mcp-http-2026", era, (actor) => ({
    transport: era === "2025" ? new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), init(actor)) : new Http2(new URL(`${baseUrl}/mcp`), init(actor)),
  }));
}

/** MCP over stdio: the built `cairn mcp`, one process per actor, pointed at the server with the actor's token, in either era. */
export function mcpStdioDriver(baseUrl: string, era: Era = "2025"): Driver {
  const bin = requireBuiltCli();
  return mcpDriver(era === "2025" ? "mcp-stdio" : "mcp-stdio-2026", era, (actor) => {
    const options = { command: process.execPath, args: [bin, "mcp"], env: cliEnv(baseUrl, actor.token), stderr: "pipe" as const };
    const transport = era === "2025" ? new StdioClientTransport(options) : new Stdio2(options);
    let stderr = "";
    transport.stderr?.on("data", (d) => {
      stderr += d;
    });
    return { transport, stderr: () => stderr };
  });
}
