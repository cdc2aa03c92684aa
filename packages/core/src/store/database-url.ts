/**
 * A `DATABASE_URL` as libpq reads a connection URI, for the part node-postgres does not
 * read: several hosts (`postgres://h1:5432,h2:5433/db`) and `target_session_attrs`
 * (libpq's "Specifying Multiple Hosts" and "Parameter Key Words"). Every other part of the
 * URL (user, password, database, sslmode, …) is left to node-postgres, one host at a time.
 */

/** libpq's `target_session_attrs` values; `any` when absent. */
export const TARGET_SESSION_ATTRS = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface DatabaseHost {
  /** A host name, an IP address (IPv6 without brackets) or a Unix socket directory (starts with `/`). */
  host: string;
  port: number;
}

export interface DatabaseTarget {
  /** Tried in this order, as libpq does. */
  hosts: DatabaseHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The URL node-postgres gets for one host: this URL with only that host, and without `target_session_attrs`. */
  urlFor(host: DatabaseHost): string;
}

const DEFAULT_PORT = 5432;

/** Why a URL was refused, naming the part; never the URL itself (it may hold a password). */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const scheme = /^(postgres(?:ql)?):\/\//i.exec(url);
  if (!scheme) throw new DatabaseUrlError("DATABASE_URL must start with postgres:// or postgresql://");
  const rest = url.slice(scheme[0].length);
  // The netloc ends at the first `/` or `?`; the user info at its last `@` (a password may hold `@` only encoded, but be lenient).
  const netlocEnd = rest.search(/[/?]/);
  const netloc = netlocEnd < 0 ? rest : rest.slice(0, netlocEnd);
  const tail = netlocEnd < 0 ? "" : rest.slice(netlocEnd);
  const at = netloc.lastIndexOf("@");
  const userInfo = at < 0 ? "" : netloc.slice(0, at + 1);
  const hostList = at < 0 ? netloc : netloc.slice(at + 1);
  const queryStart = tail.indexOf("?");
  const path = queryStart < 0 ? tail : tail.slice(0, queryStart);
  const params = new URLSearchParams(queryStart < 0 ? "" : tail.slice(queryStart + 1));

  const attrs = params.get("target_session_attrs") ?? "any";
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new DatabaseUrlError(`target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(", ")}; got "${attrs.slice(0, 40)}"`);
  }
  params.delete("target_session_attrs");

  let hosts = hostList === "" ? [] : hostList.split(",").map(hostAndPort);
  // `?host=` and `?port=` stand for the URI's parts (libpq: "components of the hierarchical part can also be given as parameters").
  const hostParam = params.get("host");
  const portParam = params.get("port");
  params.delete("host");
  params.delete("port");
  if (hostParam !== null) hosts = hostParam.split(",").map((host) => ({ host, port: undefined as number | undefined }));
  if (hosts.length === 0) hosts = [{ host: "localhost", port: undefined }];
  if (portParam !== null) {
    const ports = portParam.split(",").map(portNumber);
    // libpq: as many ports as hosts, or exactly one for all of them.
    if (ports.length !== 1 && ports.length !== hosts.length) {
      throw new DatabaseUrlError(`port lists ${ports.length} ports for ${hosts.length} hosts: give one port, or one per host`);
    }
    hosts = hosts.map((h, i) => ({ ...h, port: ports.length === 1 ? ports[0] : ports[i] }));
  }
  const resolved: DatabaseHost[] = hosts.map((h) => ({ host: h.host, port: h.port ?? DEFAULT_PORT }));
  const query = params.toString();

  return {
    hosts: resolved,
    targetSessionAttrs: attrs as TargetSessionAttrs,
    urlFor(h) {
      const base = `${scheme[1]}://${userInfo}`;
      // A socket directory travels as node-postgres's `host` parameter, which wins over the netloc.
      if (h.host.startsWith("/")) {
        const q = new URLSearchParams(query);
        q.set("host", h.host);
        q.set("port", String(h.port));
        return `${base}${path || "/"}?${q.toString()}`;
      }
      const name = h.host.includes(":") ? `[${h.host}]` : h.host;
      return `${base}${name}:${h.port}${path}${query ? `?${query}` : ""}`;
    },
  };
}

function hostAndPort(part: string): { host: string; port: number | undefined } {
  const ipv6 = /^\[([^\]]*)\](?::(.*))?$/.exec(part);
  if (ipv6) return { host: ipv6[1] as string, port: ipv6[2] ? portNumber(ipv6[2]) : undefined };
  const colon = part.lastIndexOf(":");
  const host = decodeURIComponent(colon < 0 ? part : part.slice(0, colon));
  const port = colon < 0 || part.slice(colon + 1) === "" ? undefined : portNumber(part.slice(colon + 1));
  return { host: host === "" ? "localhost" : host, port };
}

function portNumber(text: string): number {
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n < 1 || n > 65535) throw new DatabaseUrlError(`port must be a number from 1 to 65535; got "${text.slice(0, 20)}"`);
  return n;
}

/** More than one host, or a role to check: the store then picks the host itself. */
export const needsHostSelection = (target: DatabaseTarget): boolean => target.hosts.length > 1 || target.targetSessionAttrs !== "any";
