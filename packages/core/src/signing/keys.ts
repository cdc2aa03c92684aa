import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Sql, Store } from "../store/port.js";
import type { Jwk, Jwks } from "./schemas.js";

/** The server's Ed25519 signing key. The private half never leaves the database and this module. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Jwk;
}

interface KeyRow {
  kid: string;
  public_jwk: Jwk;
  private_key: string;
  created_at: Date | string;
  retired_at: Date | string | null;
}

/** RFC 7638 JWK thumbprint (required members in lexicographic order), base64url: a kid anyone can recompute. */
function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash("sha256").update(canonical, "utf8").digest("base64url");
}

/** The public JWK of an Ed25519 key, with its thumbprint as `kid`. */
export function publicJwkOf(publicKey: KeyObject): Jwk {
  const { crv, kty, x } = publicKey.export({ format: "jwk" }) as { crv: string; kty: string; x: string };
  if (kty !== "OKP" || crv !== "Ed25519") throw new Error("signing keys are Ed25519");
  return { kty: "OKP", crv: "Ed25519", x, kid: jwkThumbprint({ crv, kty, x }), alg: "EdDSA", use: "sig" };
}

function toSigningKey(row: KeyRow): SigningKey {
  const privateKey = createPrivateKey({ key: Buffer.from(row.private_key, "base64"), format: "der", type: "pkcs8" });
  return { kid: row.kid, privateKey, publicJwk: row.public_jwk };
}

async function insertNewKey(sql: Sql, now: Date): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = publicJwkOf(publicKey);
  const der = privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
  // The partial unique index allows one active key: a process that loses the race inserts nothing.
  await sql.query(
    `insert into signing_keys (kid, public_jwk, private_key, created_at) values ($1, $2::json, $3, $4)
     on conflict do nothing`,
    [jwk.kid, JSON.stringify(jwk), der, now.toISOString()],
  );
}

/**
 * The active signing key, created on first use (first start calls it too). Safe with many
 * processes: every one that finds none tries to insert, one insert wins, all read it back.
 */
export async function ensureSigningKey(store: Sql, now: Date = new Date()): Promise<SigningKey> {
  const select = "select kid, public_jwk, private_key, created_at, retired_at from signing_keys where retired_at is null";
  const [found] = await store.query<KeyRow>(select);
  if (found) return toSigningKey(found);
  await insertNewKey(store, now);
  const [row] = await store.query<KeyRow>(select);
  if (!row) throw new Error("no active signing key after creating one");
  return toSigningKey(row);
}

/** Retires the active key and makes a new one, atomically; retired public keys stay listed for verification. */
export async function rotateSigningKey(store: Store, now: Date): Promise<Jwk> {
  return store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext('cairn.signing_keys'))");
    await tx.query("update signing_keys set retired_at = $1 where retired_at is null", [now.toISOString()]);
    await insertNewKey(tx, now);
    const [row] = await tx.query<KeyRow>("select kid, public_jwk, private_key, created_at, retired_at from signing_keys where retired_at is null");
    if (!row) throw new Error("rotation left no active key");
    return row.public_jwk;
  });
}

/** Every public key, the active one first, then retired ones newest first: a JWKS (RFC 7517). */
export async function listPublicKeys(store: Pick<Store, "query">): Promise<Jwks> {
  const rows = await store.query<Pick<KeyRow, "public_jwk">>("select public_jwk from signing_keys order by retired_at is not null, created_at desc, kid");
  return { keys: rows.map((r) => r.public_jwk) };
}

/** A verifying key from a JWK (an OKP/Ed25519 public key), or null when it is not one. */
export function verifyingKeyOf(jwk: Partial<Jwk>): KeyObject | null {
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string") return null;
  try {
    return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
  } catch {
    return null;
  }
}
