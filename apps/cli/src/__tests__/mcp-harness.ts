import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import type { Driver } from "@cairn/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startServer } from "../server.js";
import { homeFor } from "./serve-process.js";

export const adminTokenIn = (home: string): string => JSON.parse(readFileSync(join(home, "credentials"), "utf8")).token;

export interface InProcessServer {
  url: string;
  /** The bootstrapped admin's token, read from the credentials file like a local client would. */
  token: string;
  close(): Promise<void>;
}

/** `cairn serve`'s composition (REST + /mcp) started in this process on a free port. */
export async function startInProcess(driver: Driver): Promise<InProcessServer> {
  const { env, home, dispose } = await homeFor(driver);
  const settings = resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1" });
  const server = await startServer(settings, { info: () => {} }, "test");
  return {
    url: server.url,
    token: adminTokenIn(home),
    async close() {
      await server.close();
      await dispose();
    },
  };
}

export async function rest(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as any };
}

/** The SDK's client on the Streamable HTTP endpoint, with tool output schemas cached (so results are validated). */
export async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "cairn-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await client.listTools();
  return client;
}

/** The JSON error envelope of a tool error result (REST's body, byte for byte). */
export function toolError(result: any): any {
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result).slice(0, 300)}`);
  return JSON.parse(result.content[0].text);
}
