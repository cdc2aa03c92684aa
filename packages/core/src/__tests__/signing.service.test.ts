import { crypto as sigstoreCrypto, dsse as sigstoreDsse } from "@sigstore/core";
import { Envelope } from "@sigstore/protobuf-specs";
import { describe, expect, it } from "vitest";
import { pagesOf } from "../runtime/paging.js";
import type { DsseEnvelope } from "../signing/dsse.js";
import { ensureSigningKey, listPublicKeys } from "../signing/keys.js";
import { verifyLine } from "../signing/verify.js";
import { DRIVERS, fullReceipt, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** The independent verifier: sigstore's DSSE envelope parser, PAE and Ed25519 verify, given only the published JWK. */
function thirdPartyVerifies(line: string, jwks: { keys: Array<{ kid: string; x: string }> }): boolean {
  const envelope = Envelope.fromJSON(JSON.parse(line));
  const signature = envelope.signatures[0];
  const jwk = jwks.keys.find((k) => k.kid === signature?.keyid);
  if (!signature || !jwk) return false;
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(jwk.x, "base64url")]);
  const pae = sigstoreDsse.preAuthEncoding(envelope.payloadType, envelope.payload);
  return envelope.payloadType === "application/vnd.in-toto+json" && sigstoreCrypto.verify(pae, sigstoreCrypto.createPublicKey(spki), signature.sig);
}

describe.each(DRIVERS)("signing keys, in-toto export and receipt_verify on %s", (driver) => {
  let clock = Date.parse("2026-12-01T12:00:00Z");
  const fx = useTestWorld(driver, () => new Date(clock));

  it("first start makes one key even when many processes race; rotation keeps old public keys listed", async () => {
    const keys = await Promise.all([0, 1, 2, 3, 4].map(() => ensureSigningKey(fx.store)));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    const jwks = await fx.world.cairn.invokePublic("keys_list");
    expect(jwks.keys).toEqual([{ kty: "OKP", crv: "Ed25519", x: expect.any(String), kid: keys[0]?.kid, alg: "EdDSA", use: "sig" }]);
    expect(JSON.stringify(jwks)).not.toMatch(/"d"/);

    const sam = await fx.world.user("sam");
    const denied = await rejectionOf(fx.world.cairn.invoke("keys_rotate", sam.ctx(), {}));
    expect(denied.code).toBe("forbidden");
    const admin = fx.world.cairn.context(fx.world.admin.principal, "cli");
    const fresh = await fx.world.cairn.invoke("keys_rotate", admin, {});
    expect(fresh.kid).not.toBe(keys[0]?.kid);
    const listed = await fx.world.cairn.invoke("keys_list", sam.ctx(), {});
    expect(listed.keys.map((k) => k.kid)).toEqual([fresh.kid, keys[0]?.kid]);
    expect((await ensureSigningKey(fx.store)).kid).toBe(fresh.kid);
  });

  it("exports a tag as in-toto lines that a third-party verifier accepts with the published key; verify names a tampered check", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ tags: ["audit"], learned: "audit one" }));
    clock += 1; // ids order by millisecond
    const b = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ tags: ["audit"], learned: "audit two" }));
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "plain", body: "not a receipt", tags: ["audit"] });
    await fx.world.cairn.invoke("receipt_create", eve.ctx(), minimalReceipt({ tags: ["audit"], learned: "eve's" }));

    const lines: string[] = [];
    for await (const page of pagesOf(fx.world.cairn, "artifact_export", sam.ctx(), { tag: "audit", format: "in-toto" })) {
      lines.push(...page.items.map((i) => JSON.stringify(i as DsseEnvelope)));
    }
    expect(lines).toHaveLength(2);
    const jwks = await listPublicKeys(fx.store);
    for (const line of lines) expect(thirdPartyVerifies(line, jwks)).toBe(true);
    const subjects = lines.map((l) => JSON.parse(Buffer.from(JSON.parse(l).payload, "base64").toString()).subject[0]);
    expect(subjects).toEqual([
      { name: `cairn:${b.id}`, digest: { sha256: b.checksum.slice(7) } },
      { name: `cairn:${a.id}`, digest: { sha256: a.checksum.slice(7) } },
    ]);
    // The predicate carries details as stored, so the body re-renders from it alone.
    const predicate = JSON.parse(Buffer.from(JSON.parse(lines[1] ?? "").payload, "base64").toString()).predicate;
    expect(predicate.details).toBe(fullReceipt().details);

    for (const line of lines) {
      const result = await fx.world.cairn.invoke("receipt_verify", sam.ctx(), { line });
      expect(result).toMatchObject({ valid: true, failed: null });
    }
    const envelope = JSON.parse(lines[0] ?? "");
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString());
    statement.predicate.metadata.learned = "something else";
    const tampered = JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString("base64") });
    expect(thirdPartyVerifies(tampered, jwks)).toBe(false);
    expect(await fx.world.cairn.invoke("receipt_verify", sam.ctx(), { line: tampered })).toMatchObject({ valid: false, failed: "signature" });
    // Offline, with the published keys only: the same answers.
    expect(verifyLine(lines[0] ?? "", jwks.keys).valid).toBe(true);
    expect(verifyLine(tampered, jwks.keys).failed).toBe("signature");
  });

  it("verifies a stored receipt by id; a changed body fails checksum; others' ids are 404 and expired ones 410", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "by id" }));
    expect(await fx.world.cairn.invoke("receipt_verify", sam.ctx(), { id: a.id })).toMatchObject({ valid: true, id: a.id });
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "p", body: "plain body" });
    expect((await fx.world.cairn.invoke("receipt_verify", sam.ctx(), { id: plain.id })).valid).toBe(true);

    await fx.store.query("update artifacts set metadata = $2::json where id = $1", [a.id, JSON.stringify({ ...a.metadata, learned: "rewritten" })]);
    const changed = await fx.world.cairn.invoke("receipt_verify", sam.ctx(), { id: a.id });
    expect(changed).toMatchObject({ valid: false, failed: "checksum" });

    expect((await rejectionOf(fx.world.cairn.invoke("receipt_verify", eve.ctx(), { id: a.id }))).code).toBe("not_found");
    const both = await rejectionOf(fx.world.cairn.invoke("receipt_verify", sam.ctx(), { id: a.id, line: "x" }));
    expect(both.issues?.[0]?.field).toBe("id");
    const short = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "short life", expires_in: 60 }));
    clock += 61_000;
    expect((await rejectionOf(fx.world.cairn.invoke("receipt_verify", sam.ctx(), { id: short.id }))).code).toBe("gone");
  });
});
