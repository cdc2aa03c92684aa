import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { Issue } from "../errors.js";

/**
 * Loopback, private, link-local, unspecified, CGNAT and unique-local ranges: what
 * CAIRN_WEBHOOK_DENY_PRIVATE=1 refuses. IPv4-mapped IPv6 is unwrapped before checking.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1] as string, "ipv4");
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** URL.hostname keeps IPv6 brackets; the resolver and isIP want them off. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

/** Why a subscription URL is not a target at all (scheme, credentials), or null. */
export function targetIssue(raw: string): Issue | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { field: "url", reason: "is not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { field: "url", reason: "must be an http: or https: URL" };
  if (url.username !== "" || url.password !== "") return { field: "url", reason: "must not carry credentials" };
  if (url.hostname === "") return { field: "url", reason: "has no host" };
  return null;
}

/**
 * Resolves a host and returns the address to connect to, refusing (when denyPrivate) if
 * any address it resolves to is private. The caller connects to exactly this address, so
 * a second resolution (DNS rebinding) cannot send the request elsewhere.
 */
export async function resolveTarget(hostname: string, denyPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  const addresses =
    literal !== 0 ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true });
  const first = addresses[0];
  if (!first) throw new TargetRefused(`${host} did not resolve`);
  if (denyPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new TargetRefused("the target resolves to a loopback, private or link-local address (CAIRN_WEBHOOK_DENY_PRIVATE=1)");
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

export class TargetRefused extends Error {
  override name = "TargetRefused";
}
