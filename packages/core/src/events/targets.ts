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

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.replace(/%.*$/, "").toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (p: string | undefined) => (p ? p.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it (SPEC §19):
 * IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible
 * `::/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, and Teredo
 * `2001::/32` (client address inverted). Null for any other address.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g5 === 0xffff) return dotted(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return dotted(g6, g7);
  if (zeroTo(6)) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return dotted(g6, g7);
  if (g0 === 0x2002) return dotted(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return dotted(~g6 & 0xffff, ~g7 & 0xffff);
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (PRIVATE.check(address, "ipv6")) return true;
  const inner = embeddedIpv4(address);
  return inner !== null && PRIVATE.check(inner, "ipv4");
}

/** URL.hostname keeps IPv6 brackets; the resolver and isIP want them off. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

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
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true });
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
