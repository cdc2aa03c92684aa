import type { IncomingMessage } from "node:http";

/** The part of a fetch Response the CLI reads. A real `Response` is one, so tests may pass global fetch. */
export interface HttpAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** The body as UTF-8 text (a byte-order mark dropped, as fetch does). */
  text(): Promise<string>;
  /** The body as it arrives, for streams (export). */
  readonly body: AsyncIterable<Uint8Array> | null;
}

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** `manual` answers a redirect as it is; `follow` (the default) follows it as fetch does. */
  redirect?: "follow" | "manual";
}

/** How the CLI sends a request: global fetch fits, and so does `nodeFetch`. */
export type HttpFetch = (url: string | URL, init?: HttpInit) => Promise<HttpAnswer>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Lazily: loading node:http and node:https costs a few milliseconds each, and a command
 * uses one. Taken from Node rather than imported: in the CommonJS quick path an `import()`
 * would start the ES module loader for it (docs/adr/0070).
 */
const agents = new Map<string, Promise<{ request: typeof import("node:http").request; agent: import("node:http").Agent }>>();
function clientFor(protocol: string) {
  let client = agents.get(protocol);
  if (!client) {
    const m = protocol === "https:" ? process.getBuiltinModule("node:https") : process.getBuiltinModule("node:http");
    client = Promise.resolve({
      request: m.request,
      // Kept alive: `cairn verify FILE` sends one request per line. Idle sockets do not hold the process.
      agent: new m.Agent({ keepAlive: true }),
    });
    agents.set(protocol, client);
  }
  return client;
}

function answerOf(res: IncomingMessage): HttpAnswer {
  const status = res.statusCode ?? 0;
  // A connection that drops mid-body fails the read of it (text() or the stream), not the process.
  res.on("error", () => {});
  let read: Promise<string> | undefined;
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: res,
    text() {
      read ??= (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of res) chunks.push(chunk as Buffer);
        return new TextDecoder().decode(Buffer.concat(chunks));
      })();
      return read;
    },
  };
}

/** Fails like fetch does when no HTTP answer came: a TypeError whose cause holds the system error. */
const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause });

function send(url: URL, init: HttpInit, retryOnReset: boolean): Promise<HttpAnswer> {
  return clientFor(url.protocol).then(
    ({ request, agent }) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const { signal } = init;
        if (signal?.aborted) return reject(signal.reason);
        const headers: Record<string, string> = { accept: "*/*", ...init.headers };
        if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
        const req = request(url, { method: init.method ?? "GET", headers, agent });
        const onAbort = () => {
          req.destroy();
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        req.once("response", (res) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answerOf(res));
        });
        req.once("error", (err: NodeJS.ErrnoException) => {
          signal?.removeEventListener("abort", onAbort);
          if (signal?.aborted) return;
          // A kept-alive socket the server closed a moment ago: a read is safe to send again, a write is not.
          if (retryOnReset && req.reusedSocket && err.code === "ECONNRESET") resolve(send(url, init, false));
          else reject(fetchFailed(err));
        });
        req.end(init.body);
      }),
    (err: unknown) => {
      throw fetchFailed(err);
    },
  );
}

/**
 * fetch for the CLI, on node:http(s). The CLI sends one or two requests and exits; global
 * fetch costs it ~40 ms to load, and its HTTP parser (WebAssembly) keeps compiling on a
 * background thread that the process waits for at exit, ~70 ms more (docs/adr/0025). A
 * redirect, which Cairn itself never answers, is sent again through global fetch, so it
 * is followed exactly as before (or answered as is with `redirect: "manual"`).
 */
export const nodeFetch: HttpFetch = async (input, init = {}) => {
  const url = new URL(input);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw fetchFailed(new Error(`unsupported protocol ${url.protocol}`));
  const method = (init.method ?? "GET").toUpperCase();
  const answer = await send(url, init, method === "GET" || method === "HEAD");
  if (!REDIRECTS.has(answer.status) || answer.headers.get("location") === null || init.redirect === "manual") return answer;
  await answer.text().catch(() => "");
  const { redirect: _redirect, ...rest } = init;
  return fetch(url, rest);
};
