import { describe, expect, it } from "vitest";
import { CairnError } from "../errors.js";
import { CONCURRENCY_DRIVERS, createTestWorld, fullReceipt, minimalReceipt, openTestStore } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

describe.each(CONCURRENCY_DRIVERS)("receipts on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("creates a receipt: rendered body, checksum, receipt tag, Nothing, provenance, 7-day expiry", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx("mcp"), minimalReceipt());
    expect(created.id).toMatch(/^art_/);
    expect(created.tags).toEqual(["receipt"]);
    expect(created.metadata?.human_action).toBe("Nothing");
    expect(created.metadata?.schema).toBe("cairn.receipt/v1");
    expect(created.owner).toBe(`user:${sam.name}`);
    expect(created.provenance).toEqual({
      actor: { id: sam.principal.token.id, name: "initial", kind: "human" },
      on_behalf_of: sam.name,
      model: null,
      surface: "mcp",
    });
    expect(created.url).toMatch(/^http:\/\/cairn\.test\/s\/[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(created.expires_at ?? "") - Date.parse(created.created_at);
    expect(ttl).toBe(7 * 86_400_000);
    expect(created.retained).toBe(false);
  });

  it("reads back the same body, checksum and metadata in schema order", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt());
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    const { redactions: _r, warnings: _w, ...withoutRedactions } = created;
    expect(read).toEqual(withoutRedactions);
    expect(Object.keys(read.metadata ?? {})).toEqual([
      "schema",
      "changed",
      "affected",
      "before",
      "after",
      "evidence",
      "evidence_note",
      "outcome",
      "human_action",
      "remaining",
      "learned",
    ]);
  });

  it("hides another user's artifact behind the same 404 as a missing id", async () => {
    const a = await fx.world.user("a");
    const b = await fx.world.user("b");
    const created = await fx.world.cairn.invoke("receipt_create", a.ctx(), minimalReceipt());
    const foreign = await rejectionOf(fx.world.cairn.invoke("artifact_read", b.ctx(), { id: created.id }));
    const missing = await rejectionOf(fx.world.cairn.invoke("artifact_read", b.ctx(), { id: "art_00000000000000000000000000" }));
    expect(foreign.code).toBe("not_found");
    expect(foreign.toBody()).toEqual(missing.toBody());
  });

  it("refuses identical fields from the same owner within 24 h as a duplicate, with the existing id", async () => {
    const sam = await fx.world.user("sam");
    const first = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt()));
    expect(err.code).toBe("duplicate");
    expect(err.existing).toEqual({ id: first.id, url: first.url });
    expect(err.drop?.category).toBe("duplicate");
    expect(err.drop?.recoverable).toBe(false);
    // Another owner may say the same thing.
    const other = await fx.world.user("other");
    const theirs = await fx.world.cairn.invoke("receipt_create", other.ctx(), minimalReceipt());
    expect(theirs).toMatchObject({ owner: `user:${other.name}`, checksum: first.checksum });
    expect(theirs.id).not.toBe(first.id);
  });

  it("stores exactly one of many identical concurrent submissions", async () => {
    const sam = await fx.world.user("sam");
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "race" }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected.every((r) => r.reason instanceof CairnError && r.reason.code === "duplicate")).toBe(true);
  });

  it("counts follows as part of a receipt's identity for duplicates, though the body does not show it", async () => {
    const a = await fx.world.user("a");
    const first = await fx.world.cairn.invoke("receipt_create", a.ctx(), minimalReceipt({ learned: "outcome measured" }));
    const other = await fx.world.cairn.invoke("receipt_create", a.ctx(), minimalReceipt({ learned: "another start" }));
    const followUp = minimalReceipt({ learned: "checked", follows: first.id });
    const stored = await fx.world.cairn.invoke("receipt_create", a.ctx(), followUp);
    // Same fields following a different receipt: a different receipt, same body bytes.
    const second = await fx.world.cairn.invoke("receipt_create", a.ctx(), { ...followUp, follows: other.id });
    expect(second.checksum).toBe(stored.checksum);
    const again = await rejectionOf(fx.world.cairn.invoke("receipt_create", a.ctx(), followUp));
    expect(again.code).toBe("duplicate");
    expect(again.existing?.id).toBe(stored.id);
  });

  it("accepts follows to an own receipt and rejects one to another owner's as foreign-link", async () => {
    const a = await fx.world.user("a");
    const b = await fx.world.user("b");
    const first = await fx.world.cairn.invoke("receipt_create", a.ctx(), minimalReceipt({ learned: "first" }));
    const second = await fx.world.cairn.invoke("receipt_create", a.ctx(), minimalReceipt({ learned: "second", follows: first.id }));
    expect(second.follows).toEqual({ id: first.id });
    expect(second.metadata?.follows).toBe(first.id);
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", b.ctx(), minimalReceipt({ follows: first.id })));
    expect(err.code).toBe("validation_failed");
    expect(err.drop?.category).toBe("foreign-link");
    expect(err.issues).toEqual([{ field: "follows", reason: "names no receipt of the same owner" }]);
  });

  it("rejects an unknown schema with code unknown_schema", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ schema: "cairn.note/v1" })));
    expect(err.code).toBe("unknown_schema");
    expect(err.issues?.[0]?.field).toBe("schema");
  });

  it("refuses to create for a user or team the caller does not act for", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ owner: "team:strangers" })));
    expect(err.code).toBe("forbidden");
    expect(err.issues?.[0]?.field).toBe("owner");
  });

  it("reads as gone once expired, and leaves expired artifacts out of search", async () => {
    let clock = new Date("2026-11-01T00:00:00Z");
    const timeWorld = await createTestWorld(await openTestStore(driver), () => clock);
    try {
      const sam = await timeWorld.user("sam");
      const created = await timeWorld.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
      clock = new Date("2026-11-08T00:00:01Z");
      const err = await rejectionOf(timeWorld.cairn.invoke("artifact_read", sam.ctx(), { id: created.id }));
      expect(err.code).toBe("gone");
      const page = await timeWorld.cairn.invoke("artifact_search", sam.ctx(), { tag: "receipt" });
      expect(page.items).toEqual([]);
    } finally {
      await timeWorld.cairn.close();
    }
  });
});
