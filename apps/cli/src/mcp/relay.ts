import { jsonSyntaxReason } from "@cairn/core/json";
import { ERROR_META_KEY } from "../light.js";
import { ask, explainError, type JsonRpcAnswer, type JsonRpcId, type Upstream, UpstreamFailure } from "./upstream.js";

export interface RelayOptions extends Upstream {
  version: string;
  /** The revisions the pinned SDK speaks (metadata.ts). */
  protocol: { latest: string; supported: readonly string[] };
  /** One plain line per problem, for the person reading the MCP client's log (stderr). */
  warn(line: string): void;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

export interface RunningRelay {
  /** Settles once the MCP client closed stdin and every call in flight was answered. */
  done: Promise<void>;
  close(): Promise<void>;
}

/** What the server said about itself when we connected, for our own `initialize` answer. */
interface Remote {
  serverInfo: { name?: string; title?: string; version?: string };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

/** Each relayed request, by the capability that offers it: the same set the SDK-based proxy declared. */
const FORWARDED = {
  tools: ["tools/list", "tools/call"],
  resources: ["resources/list", "resources/templates/list", "resources/read"],
  prompts: ["prompts/list", "prompts/get"],
} as const;

/** An SDK stdio transport gives up on a line longer than this (10 MB) and closes. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Connects the way the SDK's client did: an `initialize` at the newest revision. A wrong
 * URL or token fails here, before anything is served, with a plain reason.
 */
async function connect(options: RelayOptions): Promise<Remote> {
  let answer: JsonRpcAnswer;
  try {
    answer = await ask(options, {
      id: 0,
      method: "initialize",
      params: { protocolVersion: options.protocol.latest, capabilities: {}, clientInfo: { name: "cairn-mcp-stdio", version: options.version } },
    });
  } catch (err) {
    const failure = err as UpstreamFailure;
    throw new Error(
      failure.explained?.message ?? `cannot talk to the Cairn server at ${options.serverUrl}: MCP error ${failure.rpc.code}: ${failure.rpc.message}`,
    );
  }
  if (answer.error) throw new Error(`cannot talk to the Cairn server at ${options.serverUrl}: MCP error ${answer.error.code}: ${answer.error.message}`);
  const result = (answer.result ?? {}) as Partial<Remote> & { protocolVersion?: unknown };
  if (typeof result.protocolVersion !== "string" || !options.protocol.supported.includes(result.protocolVersion)) {
    throw new Error(`cannot talk to the Cairn server at ${options.serverUrl}: Server's protocol version is not supported: ${String(result.protocolVersion)}`);
  }
  return {
    serverInfo: result.serverInfo ?? {},
    capabilities: result.capabilities ?? { tools: {} },
    ...(typeof result.instructions === "string" && { instructions: result.instructions }),
  };
}

type Message = { jsonrpc: "2.0"; id?: unknown; method?: unknown; params?: unknown };

/** The `_meta` key a 2026-07-28 request names its revision under (its per-request envelope). */
const ENVELOPE_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** Which param a 2026-07-28 request's Mcp-Name header repeats, by method. */
const NAME_PARAM: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/**
 * The revision a 2026-07-28-style request claims in its `_meta` envelope, and the HTTP
 * headers Streamable HTTP wants beside it (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
 * the name Base64-wrapped so any text survives a header). Null for a 2025-era request.
 */
export function modernHeaders(method: string, params: unknown): { version: string; headers: Record<string, string> } | null {
  const p = params as { _meta?: Record<string, unknown> } & Record<string, unknown>;
  const version = p?._meta?.[ENVELOPE_VERSION_KEY];
  if (typeof version !== "string") return null;
  const headers: Record<string, string> = { "mcp-method": method };
  const field = NAME_PARAM[method];
  const name = field === undefined ? undefined : p[field];
  if (typeof name === "string") headers["mcp-name"] = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
  return { version, headers };
}
const isId = (id: unknown): id is JsonRpcId => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/**
 * `cairn mcp`: MCP on stdin/stdout, relayed message by message to the Cairn server's
 * Streamable HTTP endpoint. A 2026-07-28 client's requests (`server/discover` first) each
 * carry their revision and are relayed as they came. For a 2025-era client it answers
 * `initialize` and `ping` itself, as the server would; every tools, resources and prompts
 * request goes to the server with the revision our client negotiated, and the server's answer comes back as it sent it — so stdio and
 * HTTP answer alike. No MCP SDK is loaded (docs/adr/0025): it is newline-delimited JSON.
 */
export async function runRelay(options: RelayOptions): Promise<RunningRelay> {
  const remote = await connect(options);
  const kinds = (Object.keys(FORWARDED) as Array<keyof typeof FORWARDED>).filter((kind) => remote.capabilities[kind]);
  const relayed = new Set<string>(kinds.flatMap((kind) => FORWARDED[kind]));
  // The revision our client negotiated; until it says, the newest (as the SDK's client spoke upstream).
  let negotiated = options.protocol.latest;

  let writing = Promise.resolve();
  const write = (message: unknown) => {
    const line = `${JSON.stringify(message)}\n`;
    writing = writing.then(
      () =>
        new Promise<void>((resolve) => {
          if (options.stdout.write(line)) resolve();
          else options.stdout.once("drain", () => resolve());
        }),
    );
    return writing;
  };
  const answerError = (id: JsonRpcId | null, error: { code: number; message: string; data?: unknown }) =>
    write({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } });

  const initialize = (id: JsonRpcId, params: unknown) => {
    const p = params as { protocolVersion?: unknown; capabilities?: unknown; clientInfo?: { name?: unknown; version?: unknown } } | undefined;
    if (
      typeof p?.protocolVersion !== "string" ||
      typeof p.capabilities !== "object" ||
      typeof p.clientInfo?.name !== "string" ||
      typeof p.clientInfo.version !== "string"
    ) {
      return answerError(id, {
        code: -32602,
        message: "Invalid request parameters: initialize needs protocolVersion, capabilities and clientInfo {name, version}",
      });
    }
    negotiated = options.protocol.supported.includes(p.protocolVersion) ? p.protocolVersion : options.protocol.latest;
    const { name, title, version } = remote.serverInfo;
    return write({
      result: {
        protocolVersion: negotiated,
        capabilities: Object.fromEntries(kinds.map((kind) => [kind, {}])),
        serverInfo: { name: name ?? "cairn", ...(title && { title }), version: version ?? options.version },
        ...(remote.instructions && { instructions: remote.instructions }),
      },
      jsonrpc: "2.0",
      id,
    });
  };

  // Calls in flight: by id, so a `notifications/cancelled` can stop one; all, so the end of input can wait for them.
  const calls = new Set<Promise<void>>();
  const cancellers = new Map<JsonRpcId, AbortController>();
  const forward = (id: JsonRpcId, method: string, params: unknown) => {
    // A 2026-07-28 request carries its own revision and capabilities: it is relayed as it came, for the server to answer.
    const modern = modernHeaders(method, params);
    const controller = new AbortController();
    cancellers.set(id, controller);
    const call = (async () => {
      try {
        const answer = await ask(
          options,
          { id, method, ...(params !== undefined && { params }) },
          {
            protocolVersion: modern?.version ?? negotiated,
            ...(modern && { headers: modern.headers }),
            signal: controller.signal,
          },
        );
        if (controller.signal.aborted) return; // cancelled: the client expects no answer
        await write(answer.error ? { jsonrpc: "2.0", id, error: answer.error } : { result: answer.result, jsonrpc: "2.0", id });
      } catch (err) {
        if (controller.signal.aborted) return;
        const failure = err instanceof UpstreamFailure ? err : UpstreamFailure.explained(explainError(err, options.serverUrl));
        if (failure.explained) options.warn(`cairn mcp: ${failure.explained.message}`);
        const data = failure.rpc.data as { error?: { code?: unknown }; request_id?: string } | undefined;
        const body = data?.error;
        // The server's database is down: a tool error the model reads ("try again shortly"), as over HTTP.
        if (method === "tools/call" && body?.code === "unavailable") {
          await write({
            result: {
              content: [{ type: "text", text: JSON.stringify({ error: body }) }],
              isError: true,
              _meta: { [ERROR_META_KEY]: body, ...(data?.request_id !== undefined && { request_id: data.request_id }) },
            },
            jsonrpc: "2.0",
            id,
          });
        } else {
          await answerError(id, failure.rpc);
        }
      } finally {
        if (cancellers.get(id) === controller) cancellers.delete(id);
      }
    })();
    calls.add(call);
    void call.then(() => calls.delete(call));
  };

  const handle = (line: string) => {
    let message: Message;
    if (line.trim() === "") return;
    try {
      message = JSON.parse(line);
    } catch (err) {
      // JSON-RPC's parse error, saying where the line breaks (as /mcp does over HTTP).
      return void answerError(null, { code: -32700, message: `Parse error: the message ${jsonSyntaxReason(line, err)}` });
    }
    if (typeof message !== "object" || message === null || Array.isArray(message) || message.jsonrpc !== "2.0") return;
    const { id, method, params } = message;
    if (typeof method !== "string") return; // a response to a request we never sent
    if (id === undefined) {
      if (method === "notifications/cancelled") {
        const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
        if (isId(requestId)) cancellers.get(requestId)?.abort();
      }
      return; // other notifications (initialized, progress) need nothing from us
    }
    if (!isId(id)) return;
    if (method === "initialize") return void initialize(id, params);
    if (method === "ping") return void write({ result: {}, jsonrpc: "2.0", id });
    if (!relayed.has(method) && modernHeaders(method, params) === null) return void answerError(id, { code: -32601, message: "Method not found" });
    forward(id, method, params);
  };

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      options.stdin.off("data", onData);
      while (calls.size > 0) await Promise.all(calls);
      await writing;
      finish();
    })();
    return closing;
  };

  let pending = "";
  const onData = (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end).replace(/\r$/, "");
      pending = pending.slice(end + 1);
      handle(line);
    }
    if (pending.length > MAX_LINE_BYTES / 4 && Buffer.byteLength(pending) > MAX_LINE_BYTES) {
      pending = "";
      void close();
    }
  };
  options.stdin.setEncoding("utf8");
  options.stdin.on("data", onData);
  // An MCP client ends a session by closing our stdin: the calls it sent are answered, then we stop.
  options.stdin.on("end", () => void close());
  options.stdin.on("close", () => void close());
  return { done, close };
}
