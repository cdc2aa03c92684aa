import { createPrivateKey, createPublicKey } from "node:crypto";
import type { ArtifactRow } from "../../artifact/internal.js";
import { prepareReceipt } from "../../receipt/prepare.js";
import { publicJwkOf, type SigningKey } from "../keys.js";

/** A fixed Ed25519 key (from a constant seed) for golden tests only; never a server key. */
export function fixedTestKey(seedByte = 7): SigningKey {
  const seed = Buffer.alloc(32, seedByte);
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const publicJwk = publicJwkOf(createPublicKey(privateKey));
  return { kid: publicJwk.kid, privateKey, publicJwk };
}

/** A stored receipt row as the server would hold it, with pinned id, time and owner. */
export function storedReceiptRow(input: Record<string, unknown>, id = "art_06h31n0000000000000000000g"): ArtifactRow {
  const prepared = prepareReceipt(input);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.rejection.issues));
  const p = prepared.value;
  return {
    id,
    owner: "user:sam",
    title: p.title,
    share_type: "markdown",
    body: p.body,
    checksum: p.checksum,
    tags: p.tags,
    metadata: p.metadata,
    provenance: { actor: { id: "tok_1", name: "claude", kind: "agent" }, on_behalf_of: "sam", model: "opus-5", surface: "mcp" },
    follows: null,
    share_token: "never-exported",
    created_at: "2026-12-01T09:00:00.000Z",
    expires_at: "2026-12-08T09:00:00.000Z",
    retained: false,
    details: p.details ?? null,
    assignee: null,
  };
}
