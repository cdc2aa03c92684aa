import { OPERATIONS, type OperationName } from "@cairn/core";
import { isPlainObject as isObject } from "@cairn/core/json";
import { routeOf } from "@cairn/rest/routes";

/** What every refusal must look like, on every surface. */
export interface Answer {
  status: number;
  error?: { code: string; message: string; issues?: Array<{ field: string; reason: string }>; drop?: { id: string; fields: string[] } };
}

/** Something that answers HTTP: the in-process hono app (`app.request`) or a real server's base URL. */
export type Fetcher = (path: string, init: RequestInit) => Promise<Response>;

/**
 * Percent-encodes a path segment or query value. A lone surrogate has no UTF-8 form, so it
 * is sent as the bytes a careless client would produce (CESU-8), which is exactly the kind
 * of thing a server must refuse rather than fail on.
 */
function encodeHostile(value: string): string {
  let out = "";
  for (const ch of value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\s\S]/g) ?? []) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
      out += `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(ch);
  }
  return out;
}

const asText = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/** The HTTP request REST's route table makes of an operation input, hostile parts and all. */
function restRequest(op: OperationName, input: unknown, token: string): { path: string; init: RequestInit } {
  const route = routeOf(op, OPERATIONS[op].mutates);
  const fields = isObject(input) ? { ...input } : {};
  let path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = fields[name];
    delete fields[name];
    return value === undefined || value === "" ? "-" : encodeHostile(asText(value));
  });
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const query = (entries: Record<string, unknown>) =>
    Object.entries(entries)
      .map(([k, v]) => `${encodeHostile(k)}=${encodeHostile(asText(v))}`)
      .join("&");
  switch (route.input) {
    case "query":
    case "params+query": {
      const q = query(fields);
      if (q) path += `?${q}`;
      return { path, init: { method: route.method.toUpperCase(), headers } };
    }
    case "params":
    case "none":
      return { path, init: { method: route.method.toUpperCase(), headers } };
    case "body+query":
    case "body":
      return { path, init: { method: route.method.toUpperCase(), headers, body: JSON.stringify(input) } };
    case "params+body":
      return { path, init: { method: route.method.toUpperCase(), headers, body: JSON.stringify(isObject(input) ? fields : input) } };
  }
}

/** Sends through REST and reads the answer as REST promises it. */
export async function viaRest(fetcher: Fetcher, op: OperationName, input: unknown, token: string): Promise<Answer> {
  const { path, init } = restRequest(op, input, token);
  const res = await fetcher(path, init);
  const text = await res.text();
  if (res.status < 400) return { status: res.status };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`REST ${op} → ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, error: (body as { error: Answer["error"] }).error };
}

const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" };
let rpcId = 0;

/** Calls the tool over MCP Streamable HTTP; a tool error is read as the REST envelope it carries. Status 200 stands for "answered". */
export async function viaMcp(fetcher: Fetcher, op: OperationName, input: unknown, token: string): Promise<Answer> {
  const call = { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: op, arguments: input } };
  const res = await fetcher("/mcp", { method: "POST", headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: JSON.stringify(call) });
  const answer = (await res.json()) as { error?: { code: number; message: string }; result?: { isError?: boolean; content?: Array<{ text?: string }> } };
  if (answer.error) {
    // -32603 is our own fault; anything else (unknown tool, bad arguments shape) is the caller's.
    return { status: answer.error.code === -32603 ? 500 : 400, error: { code: `rpc ${answer.error.code}`, message: answer.error.message } };
  }
  if (!answer.result?.isError) return { status: 200 };
  const body = JSON.parse(answer.result.content?.[0]?.text ?? "{}") as { error: Answer["error"] };
  return { status: body.error?.code === "internal" ? 500 : 422, error: body.error };
}

/** The envelope every refusal must have: a code, a message, and for a validation failure the fields, capped. */
export function envelopeProblem(answer: Answer): string | null {
  if (answer.status >= 500) return `server error ${answer.status}: ${JSON.stringify(answer.error)}`;
  if (answer.status < 400) return null;
  const e = answer.error;
  if (!e || typeof e.code !== "string" || typeof e.message !== "string") return `no error envelope: ${JSON.stringify(e)}`;
  if (e.code.startsWith("rpc ")) return null;
  if (e.code === "validation_failed" && !(Array.isArray(e.issues) && e.issues.length > 0)) return "validation_failed without issues";
  for (const issue of e.issues ?? []) {
    if (typeof issue.field !== "string" || issue.field === "" || typeof issue.reason !== "string") return `malformed issue ${JSON.stringify(issue)}`;
  }
  if ((e.issues?.length ?? 0) > 21) return `${e.issues?.length} issues: not capped at 20 + "…and N more"`;
  if (e.drop && e.drop.fields.length > 21) return `drop with ${e.drop.fields.length} fields: not capped`;
  return null;
}
