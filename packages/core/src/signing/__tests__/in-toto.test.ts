import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crypto as sigstoreCrypto, dsse as sigstoreDsse } from "@sigstore/core";
import { Envelope } from "@sigstore/protobuf-specs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { statementBytes } from "../../artifact/export.js";
import { fullReceipt, minimalReceipt } from "../../testing/receipts.js";
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from "../dsse.js";
import { statementOf } from "../in-toto.js";
import { verifyLine } from "../verify.js";
import { fixedTestKey, storedReceiptRow } from "./fixtures.js";

const golden = (name: string) => join(import.meta.dirname, "__golden__", name);
const key = fixedTestKey();

function signedLine(input: Record<string, unknown>): string {
  return JSON.stringify(signEnvelope(statementBytes(statementOf(storedReceiptRow(input))), IN_TOTO_PAYLOAD_TYPE, key));
}

/** An independent check of the DSSE format: sigstore's envelope parser, PAE and verify, with the key from its JWK alone. */
function sigstoreVerifies(line: string, jwk: { x: string }): boolean {
  const envelope = Envelope.fromJSON(JSON.parse(line));
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(jwk.x, "base64url")]);
  const publicKey = sigstoreCrypto.createPublicKey(spki, "spki");
  const pae = sigstoreDsse.preAuthEncoding(envelope.payloadType, envelope.payload);
  return envelope.signatures.length === 1 && sigstoreCrypto.verify(pae, publicKey, envelope.signatures[0]?.sig ?? Buffer.alloc(0));
}

describe("in-toto export lines", () => {
  it("a signed line has the golden bytes and the in-toto Statement v1 shape", () => {
    const line = signedLine(fullReceipt());
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden("full.intoto.jsonl"), `${line}\n`);
    expect(`${line}\n`).toBe(readFileSync(golden("full.intoto.jsonl"), "utf8"));

    const envelope = JSON.parse(line);
    expect(Object.keys(envelope)).toEqual(["payload", "payloadType", "signatures"]);
    expect(envelope.payloadType).toBe("application/vnd.in-toto+json");
    expect(envelope.signatures).toEqual([{ keyid: key.kid, sig: expect.any(String) }]);
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8"));
    const row = storedReceiptRow(fullReceipt());
    expect(statement).toEqual({
      _type: "https://in-toto.io/Statement/v1",
      subject: [{ name: `cairn:${row.id}`, digest: { sha256: row.checksum.slice("sha256:".length) } }],
      predicateType: "https://cairn.dev/receipt/v1",
      predicate: {
        title: row.title,
        metadata: row.metadata,
        details: row.details,
        provenance: row.provenance,
        created_at: row.created_at,
        owner: row.owner,
      },
    });
    expect(line).not.toContain("never-exported");
    expect(line).not.toContain("/s/");
  });

  it("verifies with an independent DSSE implementation and with verifyLine", () => {
    const line = signedLine(fullReceipt());
    expect(sigstoreVerifies(line, key.publicJwk)).toBe(true);
    expect(verifyLine(line, [key.publicJwk])).toMatchObject({ valid: true, failed: null, id: "art_06h31n0000000000000000000g" });
    const plain = signedLine(minimalReceipt());
    expect(verifyLine(plain, [key.publicJwk]).valid).toBe(true);
    expect(JSON.parse(Buffer.from(JSON.parse(plain).payload, "base64").toString()).predicate.details).toBeNull();
  });

  it("a receipt stored before details had a column exports the details its body was rendered from", () => {
    const row = storedReceiptRow(fullReceipt({ learned: "It mentions\n\n## Details\n\nin an answer too." }));
    const legacy = { ...row, details: null };
    const statement = statementOf(legacy);
    expect(statement.predicate.details).toBe(row.details);
    const line = JSON.stringify(signEnvelope(statementBytes(statement), IN_TOTO_PAYLOAD_TYPE, key));
    expect(verifyLine(line, [key.publicJwk]).valid).toBe(true);
    expect(statementOf({ ...storedReceiptRow(minimalReceipt()), details: null }).predicate.details).toBeNull();
  });

  it("property: the same input gives the same bytes, whatever the order of its keys", () => {
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0 && !s.includes("\u0000"));
    fc.assert(
      fc.property(text, text, (learned, note) => {
        const input = fullReceipt({ learned, details: note });
        const reversed = Object.fromEntries(Object.entries(input).reverse());
        const a = signedLine(input);
        expect(signedLine(input)).toBe(a);
        expect(signedLine(reversed)).toBe(a);
      }),
      { numRuns: 50 },
    );
  });

  it("a tampered line fails, naming the check, for the independent verifier too", () => {
    const line = signedLine(fullReceipt());
    const envelope = JSON.parse(line);
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8"));

    // Payload changed after signing: the signature no longer covers it.
    const edited = { ...statement, predicate: { ...statement.predicate, title: "Something else entirely" } };
    const tampered = JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(edited)).toString("base64") });
    expect(sigstoreVerifies(tampered, key.publicJwk)).toBe(false);
    expect(verifyLine(tampered, [key.publicJwk])).toMatchObject({ valid: false, failed: "signature" });

    // Signed by the key, but the fields do not render to the digest: checksum.
    const resigned = JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(edited)), IN_TOTO_PAYLOAD_TYPE, key));
    expect(sigstoreVerifies(resigned, key.publicJwk)).toBe(true);
    const result = verifyLine(resigned, [key.publicJwk]);
    expect(result).toMatchObject({ valid: false, failed: "checksum" });
    expect(result.checks.map((c) => [c.name, c.status])).toEqual([
      ["payload", "pass"],
      ["key", "pass"],
      ["signature", "pass"],
      ["checksum", "fail"],
    ]);

    // Another key, not published: key.
    const stranger = fixedTestKey(9);
    const foreign = JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, stranger));
    expect(verifyLine(foreign, [key.publicJwk]).failed).toBe("key");

    // Not an envelope, or not a Statement: payload.
    expect(verifyLine("{not json", [key.publicJwk]).failed).toBe("payload");
    expect(verifyLine(JSON.stringify({ ...envelope, payloadType: "text/plain" }), [key.publicJwk]).failed).toBe("payload");
  });
});
