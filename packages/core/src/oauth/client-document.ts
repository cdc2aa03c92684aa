import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, TargetRefused } from "../events/targets.js";
import { checkRedirectUris, cleanClientName } from "./client-fields.js";
import { OAUTH_LIMITS } from "./constants.js";
import { OAuthError } from "./errors.js";

export interface ClientDocument {
  name: string;
  redirect_uris: string[];
  /** What is kept of the document: the checked fields only (the rest may hold what the database cannot store). */
  kept: { client_id: string; client_name: string; redirect_uris: string[] };
}

/**
 * Why an https client id cannot name a metadata document (CIMD draft §3): it needs a
 * path, and no fragment, credentials or dot segments. Null when it can.
 */
export function clientIdIssue(id: string): string | null {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:") return "must be an https URL";
  if (url.pathname === "/" || url.pathname === "") return "must have a path";
  if (url.hash !== "" || id.includes("#")) return "must not have a fragment";
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  if (/\/\.\.?(\/|$)/.test(id.slice(url.origin.length))) return "must not have . or .. segments";
  return null;
}

const refuse = (why: string) => new OAuthError("invalid_client", `The client's metadata document ${why}.`);

/**
 * What the network answered instead of a document (an address refused, no such host, a
 * closed port, a TLS failure, a status, a redirect elsewhere, too slow, too large). The
 * reason is for the operator's log and for clients the operator listed: a stranger is
 * answered one generic error whatever it says (ADR 0075), or the endpoint would be a
 * port scanner.
 */
export class DocumentUnavailable extends Error {
  override name = "DocumentUnavailable";
}

const unavailable = (why: string) => new DocumentUnavailable(why);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

/**
 * Fetches a client ID metadata document (SPEC §26, §37): https only; the host resolved and
 * every address checked before connecting, the connection pinned to the checked address
 * (no second lookup to rebind); a redirect followed only on the same origin, checked
 * again; at most 16 KiB within 5 seconds for the whole of it. Loopback, private and
 * link-local addresses are refused unless `allowPrivate` (a client the operator listed).
 * The document must name itself as `client_id`, declare redirect URIs, and be a public client.
 */
export async function fetchClientDocument(id: string, options: { allowPrivate: boolean }): Promise<ClientDocument> {
  const issue = clientIdIssue(id);
  if (issue) throw refuse(`URL ${issue}`);
  const origin = new URL(id);
  const text = await withDeadline(OAUTH_LIMITS.documentTimeoutMs, (signal) => follow(origin, options.allowPrivate, signal));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw refuse("is not JSON");
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw refuse("is not a JSON object");
  const raw = doc as Record<string, unknown>;
  if (raw.client_id !== id) throw refuse("does not name its own URL as client_id");
  const method = raw.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") throw refuse('must use token_endpoint_auth_method "none" (public clients only)');
  if ("client_secret" in raw) throw refuse("must not hold a client_secret");
  const redirectUris = checkRedirectUris(raw.redirect_uris, "invalid_client");
  const name = cleanClientName(raw.client_name, origin.host);
  return { name, redirect_uris: redirectUris, kept: { client_id: id, client_name: name, redirect_uris: redirectUris } };
}

/** Runs `work` with a signal that fires after `ms`; past it, the answer is a timeout whatever `work` is waiting on (DNS included). */
async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(unavailable(`it did not arrive within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), late]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

async function follow(origin: URL, allowPrivate: boolean, signal: AbortSignal): Promise<string> {
  let url = origin;
  for (let hop = 0; ; hop++) {
    let pinned: { address: string; family: 4 | 6 };
    try {
      pinned = await resolveTarget(url.hostname, !allowPrivate);
    } catch (err) {
      throw unavailable(err instanceof TargetRefused ? err.message : `${url.hostname} did not resolve`);
    }
    if (signal.aborted) throw unavailable("it was cancelled");
    const answer = await getOnce(url, pinned, signal);
    if (answer.kind === "body") return answer.text;
    if (hop >= MAX_REDIRECTS) throw unavailable(`it redirected more than ${MAX_REDIRECTS} times`);
    let next: URL;
    try {
      next = new URL(answer.location, url);
    } catch {
      throw unavailable("it redirected to something that is not a URL");
    }
    // The client id is the document's identity: a redirect may move it on its own site, never to another one.
    if (next.origin !== origin.origin || next.username !== "" || next.password !== "") throw unavailable("it redirected off its own origin");
    url = next;
  }
}

type Answer = { kind: "body"; text: string } | { kind: "redirect"; location: string };

function getOnce(url: URL, pinned: { address: string; family: 4 | 6 }, signal: AbortSignal): Promise<Answer> {
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(unavailable(why));
    };
    const req = request(url, { method: "GET", lookup, agent: false, signal, headers: { accept: "application/json", "user-agent": "Cairn-OAuth/1" } });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && typeof res.headers.location === "string") {
        settled = true;
        res.resume();
        req.destroy();
        return resolve({ kind: "redirect", location: res.headers.location });
      }
      if (status !== 200) return fail(`it answered HTTP ${status}`);
      const chunks: Buffer[] = [];
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > OAUTH_LIMITS.documentBytes) return fail(`it is larger than ${OAUTH_LIMITS.documentBytes} bytes`);
        chunks.push(chunk);
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        resolve({ kind: "body", text: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", () => fail("it could not be read"));
    });
    req.on("error", (err: NodeJS.ErrnoException) => fail(`the connection failed (${err.code ?? err.name})`));
    req.end();
  });
}
