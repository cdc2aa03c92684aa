import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { resolveTarget, TargetRefused } from "./targets.js";

const DELIVERY_TIMEOUT_MS = 15_000;
/** A receiver's answer body is not read beyond this; only the status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SendResult {
  status: number | null;
  error?: string;
  latencyMs: number;
  /** From a Retry-After header on 429/503, in milliseconds. */
  retryAfterMs?: number;
}

export interface SendOptions {
  denyPrivate: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Standard Webhooks headers for this event: the id is the event id, the same on every
 * attempt. With several secrets (after a rotation) every one signs, newest first,
 * space-separated as the spec allows, so a receiver holding any one of them verifies.
 */
function signedHeaders(secrets: readonly string[], eventId: string, payload: string, at: Date): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(" "),
  };
}

/** Retry-After is seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * One POST of the stored payload bytes. The host is resolved once, checked (when
 * denyPrivate), and the connection is pinned to that address: the socket never asks DNS
 * again, so a rebinding answer cannot redirect it. TLS still verifies the hostname.
 */
export async function sendEvent(target: string, secrets: readonly string[], eventId: string, payload: string, options: SendOptions): Promise<SendResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const url = new URL(target);
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
  const now = new Date();
  const body = Buffer.from(payload, "utf8");
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(url, {
      method: "POST",
      lookup,
      agent: false,
      signal: options.signal,
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": "Cairn-Webhooks/1",
        ...signedHeaders(secrets, eventId, payload, now),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `timed out after ${options.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms`, latencyMs: elapsed() });
    }, options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const finish = () => {
        const ok = status >= 200 && status < 300;
        const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(res.headers["retry-after"], now) : undefined;
        done({
          status,
          ...(!ok && { error: `HTTP ${status}` }),
          latencyMs: elapsed(),
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        });
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
