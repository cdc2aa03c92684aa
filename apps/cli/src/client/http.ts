import type { CairnErrorBody, OperationName, OperationOutput } from "@cairn/core";
import { defaultRoute, ROUTES, type RouteSpec, requestOf } from "@cairn/rest/routes";
import { EXIT, exitCodeOf } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import type { Connection } from "./connection.js";
import type { HttpAnswer, HttpFetch, HttpInit } from "./transport.js";

export interface Answer<T> {
  data: T;
  /** The response body exactly as the server sent it (what --json prints). */
  text: string;
}

/**
 * How long a request may take, and how large an answer the CLI reads (SPEC §31): a server
 * that stalls mid-body or sends without end meets a clear error, never a hang or a process
 * that grows until the machine swaps. A stream (`cairn export`) is bounded only in its start.
 */
export interface ClientLimits {
  /** From sending the request to the last byte of a JSON answer. */
  timeoutMs: number;
  /** The largest JSON answer read, in bytes. */
  maxBytes: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };

/** `CAIRN_CLIENT_TIMEOUT_MS` overrides the 30 s. */
export function clientLimitsFrom(env: Readonly<Record<string, string | undefined>>): ClientLimits {
  const ms = Number(env.CAIRN_CLIENT_TIMEOUT_MS);
  return { ...DEFAULT_CLIENT_LIMITS, ...(Number.isInteger(ms) && ms > 0 && { timeoutMs: ms }) };
}

const TIMEOUT_MS = DEFAULT_CLIENT_LIMITS.timeoutMs;

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Stops reading an answer and closes its connection. */
function discard(res: HttpAnswer): void {
  const body = res.body as { destroy?: () => void; cancel?: () => Promise<void> } | null;
  body?.destroy?.();
  body?.cancel?.().catch(() => {});
}

/**
 * Reads an answer's body as UTF-8 text (a byte-order mark dropped, as fetch does), up to
 * `maxBytes` and until `deadline` (epoch ms); past either it stops reading, closes the
 * connection and fails with words saying which bound was met.
 */
export async function readBounded(res: HttpAnswer, limits: ClientLimits, deadline: number, base: string): Promise<string> {
  const tooLarge = () =>
    new CliFailure(EXIT.server, `the answer from ${base} is larger than ${mib(limits.maxBytes)}, more than any Cairn answer; stopped reading it.`);
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    discard(res);
    throw tooLarge();
  }
  if (!res.body) return res.text();
  const iterator = res.body[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CliFailure(EXIT.unreachable, `the answer from ${base} did not finish within ${limits.timeoutMs / 1000} s; stopped waiting for it.`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), stalled]);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limits.maxBytes) throw tooLarge();
      chunks.push(next.value);
    }
  } catch (err) {
    discard(res);
    if (err instanceof CliFailure) throw err;
    throw unreachable(err, base);
  } finally {
    clearTimeout(timer);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Why fetch threw, in words: it never got an HTTP answer. */
export function unreachable(err: unknown, base: string, timeoutMs = TIMEOUT_MS): CliFailure {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code;
  const reason =
    e.name === "TimeoutError"
      ? `no answer within ${timeoutMs / 1000} s`
      : code === "ECONNREFUSED"
        ? "connection refused"
        : code === "ENOTFOUND" || code === "EAI_AGAIN"
          ? "host not found"
          : code === "ECONNRESET" || code === "UND_ERR_SOCKET"
            ? "connection dropped"
            : (e.cause?.message ?? e.message ?? "network error");
  return new CliFailure(
    EXIT.unreachable,
    `cannot reach Cairn at ${base} (${reason}). Is \`cairn serve\` running? The CLI talks to CAIRN_URL, else the url in $CAIRN_HOME/credentials.`,
  );
}

function isErrorBody(value: unknown): value is { error: CairnErrorBody } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}

/** Turns a non-success answer into a failure: Cairn's error envelope when there is one. */
export async function failureOf(
  res: HttpAnswer,
  connection: Connection,
  limits: ClientLimits = DEFAULT_CLIENT_LIMITS,
  deadline = Date.now() + limits.timeoutMs,
): Promise<CliFailure> {
  const base = connection.url;
  const text = await readBounded(res, limits, deadline, base).catch(() => "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const envelope = isErrorBody(parsed) ? parsed.error : undefined;
  if (res.status === 502 || res.status === 503 || res.status === 504) {
    const said = envelope ? `: ${envelope.message}` : ". Try again shortly.";
    // With an envelope (503 `unavailable`: its database is down) --json prints it like any other error.
    return new CliFailure(EXIT.unreachable, `Cairn at ${base} is unavailable (HTTP ${res.status})${said}`, {
      ...(envelope && { error: envelope, raw: text }),
    });
  }
  if (!envelope) {
    return new CliFailure(EXIT.server, `unexpected answer from ${base}: HTTP ${res.status}, not a Cairn error. Is CAIRN_URL right?`);
  }
  const hint =
    envelope.code === "unauthenticated" ? `the token from ${connection.tokenSource} was refused by ${base}; set CAIRN_TOKEN to a valid token.` : undefined;
  return new CliFailure(exitCodeOf(envelope.code) ?? EXIT.server, envelope.message, {
    error: envelope,
    raw: text,
    ...(hint && { hint }),
  });
}

/**
 * Calls core operations over REST. Paths, methods and where input goes come from the
 * REST surface's own route table, so the CLI cannot drift from the server.
 */
export class CairnClient {
  constructor(
    readonly connection: Connection,
    private readonly version: string,
    private readonly fetch: HttpFetch,
    private readonly limits: ClientLimits = DEFAULT_CLIENT_LIMITS,
  ) {}

  private request(name: OperationName, route: RouteSpec, input: unknown, extra: Readonly<Record<string, string>>): { url: string; init: HttpInit } {
    const request = requestOf(route, input);
    if (!request) throw new CliFailure(EXIT.usage, `${name} takes named fields.`);
    const headers: Record<string, string> = {
      ...extra,
      authorization: `Bearer ${this.connection.token}`,
      "x-cairn-surface": "cli",
      "user-agent": `cairn-cli/${this.version}`,
      ...(request.body !== undefined && { "content-type": "application/json" }),
    };
    return {
      url: `${this.connection.url}${request.url}`,
      init: { method: request.method, headers, ...(request.body !== undefined && { body: JSON.stringify(request.body) }) },
    };
  }

  /** One request, one JSON answer. `headers` are request headers the operation reads (e.g. `traceparent`). */
  async call<N extends OperationName>(name: N, input: unknown, headers: Readonly<Record<string, string>> = {}): Promise<Answer<OperationOutput<N>>> {
    const deadline = Date.now() + this.limits.timeoutMs;
    const res = await this.open(name, input, headers);
    const text = await readBounded(res, this.limits, deadline, this.connection.url);
    try {
      return { data: JSON.parse(text) as OperationOutput<N>, text };
    } catch {
      throw new CliFailure(EXIT.server, `unexpected answer from ${this.connection.url}: the response is not JSON.`);
    }
  }

  /**
   * Sends the request and returns a successful response unread, so a stream can be
   * consumed as it arrives. The timeout covers waiting for the answer to start, never
   * the length of a long export.
   */
  async open(name: OperationName, input: unknown, headers: Readonly<Record<string, string>> = {}): Promise<HttpAnswer> {
    // An operation without a named route takes its method from whether it writes. The
    // operations table is loaded only then: most commands' routes are named, and the
    // table is most of what `cairn read` would otherwise compile at start (docs/adr/0067).
    const route = ROUTES[name] ?? defaultRoute(name, (await (await import("../metadata.js")).operationMeta(name)).mutates);
    const { url, init } = this.request(name, route, input, headers);
    const controller = new AbortController();
    const deadline = Date.now() + this.limits.timeoutMs;
    const timer = setTimeout(() => controller.abort(new DOMException("no answer", "TimeoutError")), this.limits.timeoutMs);
    let res: HttpAnswer;
    try {
      res = await this.fetch(url, { ...init, signal: controller.signal });
    } catch (err) {
      throw unreachable(err, this.connection.url, this.limits.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw await failureOf(res, this.connection, this.limits, deadline);
    return res;
  }
}
