import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * The pair a refresh answered with, kept for the few seconds of a refresh race (ADR 0075),
 * sealed with AES-256-GCM under a key derived (HKDF) from the spent refresh token. Only
 * someone who presents that token can open it, and they held the grant already; the
 * database alone opens nothing (it stores the token's SHA-256, not the token).
 */
const keyOf = (refreshToken: string) => Buffer.from(hkdfSync("sha256", refreshToken, "cairn-oauth", "refresh reissue v1", 32));

export interface TokenPair {
  access: string;
  refresh: string;
}

export function sealReissue(refreshToken: string, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(refreshToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(pair), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The pair, or null when the seal does not open with this token (another token, a damaged row). */
export function openReissue(refreshToken: string, sealed: string): TokenPair | null {
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyOf(refreshToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const pair = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")) as TokenPair;
    return typeof pair.access === "string" && typeof pair.refresh === "string" ? pair : null;
  } catch {
    return null;
  }
}
