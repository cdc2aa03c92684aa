import { z } from "zod";

export const Jwk = z
  .object({
    kty: z.literal("OKP").describe("Key type: OKP (an Edwards-curve key)."),
    crv: z.literal("Ed25519").describe("Curve: Ed25519."),
    x: z.string().describe("The public key, base64url."),
    kid: z.string().describe("Key id: the RFC 7638 thumbprint of the key; DSSE signatures name it as `keyid`."),
    alg: z.literal("EdDSA").describe("Algorithm: EdDSA."),
    use: z.literal("sig").describe("Use: signatures."),
  })
  .meta({ id: "Jwk", description: "A public signing key of this server (never the private half)." });
export type Jwk = z.infer<typeof Jwk>;

export const Jwks = z
  .object({ keys: z.array(Jwk).describe("The active key first, then retired ones (they still verify older exports).") })
  .meta({ id: "Jwks", description: "The server's public signing keys as a JSON Web Key Set." });
export type Jwks = z.infer<typeof Jwks>;

export const KeysListInput = z.strictObject({});
export const KeysRotateInput = z.strictObject({});
