import type { CairnErrorBody, OperationName, OperationOutput } from "@cairn/core";
import { defaultRoute, requestOf, ROUTES, type RouteSpec } from "@cairn/rest/routes";
import { EXIT, exitCodeOf } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import { operationMeta } from "../metadata.js";
import type { Connection } from "./connection.js";
import type { HttpAnswer, HttpFetch, HttpInit } from "./transport.js";

export interface Answer<T> {
  data: T;
  /** The response body exactly as the server sent it (what --json prints). */
  text: string;
}

const TIMEOUT_MS = 30_000;

/** Why fetch threw, in words: it never got an HTTP answer. */
export function unreachable(err: unknown, base: string): CliFailure {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code;
  const reason =
    e.name === "TimeoutError"
      ? `no answer within ${TIMEOUT_MS / 1000} s`
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
export async function failureOf(res: HttpAnswer, connection: Connection): Promise<CliFailure> {
  const base = connection.url;
  const text = await res.text().catch(() => "");
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
    envelope.code === "unauthenticated"
      ? `the token from ${connection.tokenSource} was refused by ${base}; set CAIRN_TOKEN to a valid token.`
      : undefined;
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
    const res = await this.open(name, input, headers);
    const text = await res.text().catch((err: unknown) => {
      throw unreachable(err, this.connection.url);
    });
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
    // An operation without a named route takes its method from whether it writes.
    const route = ROUTES[name] ?? defaultRoute(name, (await operationMeta(name)).mutates);
    const { url, init } = this.request(name, route, input, headers);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException("no answer", "TimeoutError")), TIMEOUT_MS);
    let res: HttpAnswer;
    try {
      res = await this.fetch(url, { ...init, signal: controller.signal });
    } catch (err) {
      throw unreachable(err, this.connection.url);
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw await failureOf(res, this.connection);
    return res;
  }
}
