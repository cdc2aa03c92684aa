import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, TargetRefused } from "../events/targets.js";
import { OAUTH_LIMITS } from "./constants.js";
import { OAuthError } from "./errors.js";
import { checkRedirectUris, cleanClientName } from "./client-fields.js";

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
 * Fetches a client ID metadata document: https only, the host resolved once and checked
 * under §10's private-target rule (CAIRN_WEBHOOK_DENY_PRIVATE=1) with the connection pinned
 * to that address, no redirects, at most 16 KiB within 5 seconds. The document must name
 * itself as `client_id`, declare redirect URIs, and be a public client.
 */
export async function fetchClientDocument(id: string, options: { denyPrivate: boolean }): Promise<ClientDocument> {
  const issue = clientIdIssue(id);
  if (issue) throw refuse(`URL ${issue}`);
  const url = new URL(id);
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveTarget(url.hostname, options.denyPrivate);
  } catch (err) {
    throw refuse(err instanceof TargetRefused ? `cannot be fetched: ${err.message}` : `cannot be fetched: ${url.hostname} did not resolve`);
  }
  const text = await getBounded(url, pinned);
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
  const name = cleanClientName(raw.client_name, url.host);
  return { name, redirect_uris: redirectUris, kept: { client_id: id, client_name: name, redirect_uris: redirectUris } };
}

function getBounded(url: URL, pinned: { address: string; family: 4 | 6 }): Promise<string> {
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(refuse(why));
    };
    const req = request(url, { method: "GET", lookup, agent: false, headers: { accept: "application/json", "user-agent": "Cairn-OAuth/1" } });
    const timer = setTimeout(() => fail(`did not arrive within ${OAUTH_LIMITS.documentTimeoutMs} ms`), OAUTH_LIMITS.documentTimeoutMs);
    req.on("response", (res: IncomingMessage) => {
      if (res.statusCode !== 200) return fail(`could not be fetched (HTTP ${res.statusCode})`);
      const chunks: Buffer[] = [];
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > OAUTH_LIMITS.documentBytes) return fail(`is larger than ${OAUTH_LIMITS.documentBytes} bytes`);
        chunks.push(chunk);
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString("utf8"));
      });
      res.on("error", () => fail("could not be read"));
    });
    req.on("error", (err: NodeJS.ErrnoException) => fail(`could not be fetched (${err.code ?? err.name})`));
    req.end();
  });
}
