import type { KeyObject } from "node:crypto";
import { sign, verify } from "node:crypto";
import { z } from "zod";

export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

export const DsseEnvelope = z
  .object({
    payload: z.string().describe("The in-toto Statement, base64."),
    payloadType: z.string().describe("Always application/vnd.in-toto+json."),
    signatures: z
      .array(
        z.object({
          keyid: z.string().describe("The `kid` of the signing key in GET /v1/keys."),
          sig: z.string().describe("Ed25519 signature over the DSSE pre-authentication encoding, base64."),
        }),
      )
      .describe("One signature by the server's active key."),
  })
  .meta({ id: "DsseEnvelope", description: "A DSSE envelope (one line of an in-toto export)." });
export type DsseEnvelope = z.infer<typeof DsseEnvelope>;

/** DSSE v1 pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body (lengths in bytes). */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, "utf8"), type, Buffer.from(` ${payload.length} `, "utf8"), payload]);
}

/** Signs a payload into an envelope. Ed25519 is deterministic: the same payload and key give the same bytes. */
export function signEnvelope(payload: Buffer, payloadType: string, key: { kid: string; privateKey: KeyObject }): DsseEnvelope {
  const sig = sign(null, preAuthEncoding(payloadType, payload), key.privateKey);
  return { payload: payload.toString("base64"), payloadType, signatures: [{ keyid: key.kid, sig: sig.toString("base64") }] };
}

/** Whether one of the envelope's signatures verifies under the key. */
export function signatureVerifies(envelope: DsseEnvelope, publicKey: KeyObject, kid: string): boolean {
  const payload = Buffer.from(envelope.payload, "base64");
  const pae = preAuthEncoding(envelope.payloadType, payload);
  return envelope.signatures.some((s) => {
    if (s.keyid !== kid) return false;
    try {
      return verify(null, pae, publicKey, Buffer.from(s.sig, "base64"));
    } catch {
      return false;
    }
  });
}
