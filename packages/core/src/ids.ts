import { createHash, randomFillSync } from "node:crypto";

// Random bytes are drawn from the CSPRNG a pool at a time: one system call per 4 KiB
// instead of one per id (a receipt takes three). Every byte is used once.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

function randomBytes(size: number): Buffer {
  if (poolAt + size > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const out = Buffer.from(pool.subarray(poolAt, poolAt + size));
  poolAt += size;
  return out;
}

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Time-ordered id: 48-bit millisecond time then 80 random bits, base32. Sorting by id
 * sorts by creation time, which is what cursor pagination walks.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  return idAt(prefix, now, randomBytes(10));
}

/** An artifact id as `newId("art")` makes it: the prefix and 26 Crockford base32 characters. The one pattern of it. */
export const ARTIFACT_ID = /^art_[0-9a-hjkmnp-tv-z]{26}$/;

/** The smallest id of a millisecond (artifacts by default): every one created at or after `at` sorts at or above it. */
export const idFloorAt = (at: Date, prefix = "art") => idAt(prefix, at, new Uint8Array(10));

function idAt(prefix: string, now: Date, random: Uint8Array): string {
  const bytes = new Uint8Array(16);
  let ms = now.getTime();
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes.set(random, 6);
  return `${prefix}_${encodeBase32(bytes)}`;
}

/** 256 random bits: the share-link capability. */
export const newShareToken = () => randomBytes(32).toString("base64url");

/** A bearer token as shown once to its holder; only its hash is stored. */
export const newApiToken = () => `cairn_${randomBytes(32).toString("base64url")}`;

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
