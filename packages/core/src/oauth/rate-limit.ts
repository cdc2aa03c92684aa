import { isIP } from "node:net";
import { embeddedIpv4 } from "../events/targets.js";
import { LruMap } from "../lru.js";
import { OAuthError } from "./errors.js";

/** One caller's allowance: a bucket of `burst` tokens refilled at `perHour` an hour. */
interface Bucket {
  tokens: number;
  at: number;
}

export interface RateLimit {
  burst: number;
  perHour: number;
}

/**
 * Who a limit counts as one caller: an IPv4 address as it is (IPv4 in IPv6 unwrapped),
 * an IPv6 address by its /64, the block one subscriber is handed, so cycling through
 * it is not a way around the limit.
 */
export function callerKey(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (isIP(bare) !== 6) return bare;
  const inner = embeddedIpv4(bare);
  if (inner !== null) return inner;
  const [head = "", tail] = bare.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * A token-bucket limiter per caller, in this process's memory (ADR 0075): it bounds what
 * one address makes the server do, not what the database holds (the caps do that). At most
 * `keys` callers are remembered; one forgotten starts with a full bucket again.
 */
export class CallerLimiter {
  readonly #buckets: LruMap<string, Bucket>;

  constructor(
    readonly limit: RateLimit,
    keys = 10_000,
  ) {
    this.#buckets = new LruMap(keys);
  }

  /** Takes one token for the caller, or null when none is left: then the seconds until one is. */
  take(address: string, nowMs: number): { retryAfterSeconds: number } | null {
    const key = callerKey(address);
    const ratePerMs = this.limit.perHour / 3_600_000;
    const held = this.#buckets.get(key);
    const tokens = held ? Math.min(this.limit.burst, held.tokens + Math.max(0, nowMs - held.at) * ratePerMs) : this.limit.burst;
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: nowMs });
      return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / ratePerMs / 1000)) };
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: nowMs });
    return null;
  }
}

/** The refusal a limited caller gets: 429 with Retry-After, in OAuth's shape. */
export function tooManyRequests(what: string, retryAfterSeconds: number): OAuthError {
  return new OAuthError("temporarily_unavailable", `Too many ${what} from your address; try again in ${retryAfterSeconds} seconds.`, 429, retryAfterSeconds);
}
