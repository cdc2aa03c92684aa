import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Which peers may speak for the client (CAIRN_TRUST_PROXY, SPEC §39): their
 * `X-Forwarded-For` and `X-Forwarded-Proto` count, anyone else's are ignored. A header is
 * only as true as the peer that wrote it, so without this list a client could claim any
 * address or https.
 */
export interface ProxyTrust {
  trusts(address: string): boolean;
}

const LOOPBACK = ["127.0.0.0/8", "::1/128"];

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export const plainAddress = (address: string): string => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

/**
 * Parses CAIRN_TRUST_PROXY: comma-separated addresses and CIDR ranges (v4 or v6), and the
 * word `loopback` for 127.0.0.0/8 and ::1. Unset or empty: no proxy is trusted. A value
 * that is none of these is refused with the entry that failed.
 */
export function parseTrustProxy(raw: string | undefined): ProxyTrust | undefined {
  const entries = (raw ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0)
    .flatMap((e) => (e.toLowerCase() === "loopback" ? LOOPBACK : [e]));
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", bits, extra] = entry.split("/");
    const family = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : undefined;
    const prefix = bits === undefined ? (family === "ipv4" ? 32 : 128) : Number(bits);
    const max = family === "ipv4" ? 32 : 128;
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits))) {
      throw new Error(`CAIRN_TRUST_PROXY: ${JSON.stringify(entry)} is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or "loopback".`);
    }
    list.addSubnet(address, prefix, family);
  }
  return {
    trusts(address) {
      const plain = plainAddress(address);
      if (isIPv4(plain)) return list.check(plain, "ipv4");
      return isIPv6(plain) && list.check(plain, "ipv6");
    },
  };
}

export interface ForwardedRequest {
  /** The client's address: the peer itself, or the first untrusted hop of X-Forwarded-For. */
  client: string | undefined;
  /** `https` or `http` as the trusted proxy saw it; undefined when no trusted proxy said. */
  proto: "http" | "https" | undefined;
}

/**
 * Walks X-Forwarded-For from the right (the hop nearest us) past every trusted proxy; the
 * first address it does not trust is the client. X-Forwarded-Proto counts only from a
 * trusted peer, and its last value is the one that peer wrote.
 */
export function resolveForwarded(
  trust: ProxyTrust | undefined,
  peer: string | undefined,
  forwardedFor: string | undefined,
  forwardedProto: string | undefined,
): ForwardedRequest {
  const direct = peer === undefined ? undefined : plainAddress(peer);
  if (!trust || direct === undefined || !trust.trusts(direct)) return { client: direct, proto: undefined };
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => plainAddress(h.trim()))
    .filter((h) => isIPv4(h) || isIPv6(h));
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i] as string;
    if (!trust.trusts(client)) break;
  }
  const last = forwardedProto?.split(",").at(-1)?.trim().toLowerCase();
  return { client, proto: last === "https" || last === "http" ? last : undefined };
}
