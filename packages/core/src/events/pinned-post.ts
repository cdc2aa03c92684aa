import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, TargetRefused } from "./targets.js";

/** A receiver's answer body is not read beyond this; only the status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What one POST came to: the status (null when none came back), why it failed, how long it took. */
export interface PostResult {
  status: number | null;
  error?: string;
  latencyMs: number;
  /** From a Retry-After header on 429/503, in milliseconds. */
  retryAfterMs?: number;
}

export interface PostOptions {
  denyPrivate: boolean;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Retry-After is seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * One POST to a URL someone else chose (a webhook, a notification channel). The host is
 * resolved once, checked against the private ranges when the operator refuses them
 * (CAIRN_WEBHOOK_DENY_PRIVATE), and the connection is pinned to that address: the socket
 * never asks DNS again, so a rebinding answer cannot redirect it. TLS still verifies the
 * hostname. The answer is read up to 64 KiB and dropped; the call never throws.
 */
export async function pinnedPost(url: URL, headers: Record<string, string>, body: Buffer, options: PostOptions): Promise<PostResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveTarget(url.hostname, options.denyPrivate);
  } catch (err) {
    const reason = err instanceof TargetRefused ? err.message : `could not resolve ${url.hostname}`;
    return { status: null, error: `target refused: ${reason}`, latencyMs: elapsed() };
  }
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const done = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(url, {
      method: "POST",
      lookup,
      agent: false,
      ...(options.signal && { signal: options.signal }),
      headers: { ...headers, "content-length": String(body.length) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `timed out after ${options.timeoutMs} ms`, latencyMs: elapsed() });
    }, options.timeoutMs);
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const finish = () => {
        const ok = status >= 200 && status < 300;
        const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(res.headers["retry-after"], Date.now()) : undefined;
        done({ status, ...(!ok && { error: `HTTP ${status}` }), latencyMs: elapsed(), ...(retryAfterMs !== undefined && { retryAfterMs }) });
      };
      res.on("end", finish);
      res.on("close", finish);
      res.on("error", finish);
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      const reason = options.signal?.aborted ? "aborted at shutdown" : (err.code ?? err.name ?? "error");
      done({ status: null, error: `request failed: ${reason}`, latencyMs: elapsed() });
    });
    req.end(body);
  });
}
