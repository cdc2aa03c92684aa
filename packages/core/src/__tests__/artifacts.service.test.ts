import { describe, expect, it } from "vitest";
import { readArtifactByShareToken } from "../artifact/read.js";
import { CairnError } from "../errors.js";
import { DRIVERS, fullReceipt, minimalReceipt } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

describe.each(DRIVERS)("artifacts on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("creates a plain artifact without metadata and with the body's checksum", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Log", body: "hello", tags: ["Logs"] });
    expect(a.metadata).toBeNull();
    expect(a.share_type).toBe("markdown");
    expect(a.tags).toEqual(["logs"]);
    expect(a.checksum).toBe("sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
  });

  it("refuses a metadata argument on artifact_create", async () => {
    const sam = await fx.world.user("sam");
    const err = await fx.world.cairn
      .invoke("artifact_create", sam.ctx(), { title: "x", body: "y", metadata: { schema: "cairn.receipt/v1" } })
      .catch((e: CairnError) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).issues).toEqual([{ field: "metadata", reason: "is not a known field" }]);
  });

  it("rejects a json artifact whose body does not parse", async () => {
    const sam = await fx.world.user("sam");
    const err = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "x", body: "{nope", share_type: "json" }).catch((e: CairnError) => e);
    expect((err as CairnError).issues?.[0]?.field).toBe("body");
  });

  it("reads through the share link, and not through a wrong one", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "link" }));
    const token = a.url.split("/s/")[1] as string;
    const read = await readArtifactByShareToken(fx.store, fx.world.cairn.config, token);
    expect(read.id).toBe(a.id);
    await expect(readArtifactByShareToken(fx.store, fx.world.cairn.config, `${token.slice(0, -2)}xx`)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("share reads made at the same moment each get their own receipt, the missing one a 404, and a read sent afterwards sees a later write", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "first" }));
    const b = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "second" }));
    const tokenOf = (x: { url: string }) => x.url.split("/s/")[1] as string;
    const read = (token: string) => readArtifactByShareToken(fx.store, fx.world.cairn.config, token);
    const answers = await Promise.allSettled([read(tokenOf(b)), read(tokenOf(a)), read(`${tokenOf(a).slice(0, -2)}xx`), read(tokenOf(b))]);
    expect(answers.map((x) => (x.status === "fulfilled" ? x.value.id : (x.reason as CairnError).code))).toEqual([b.id, a.id, "not_found", b.id]);
    const [first, , , again] = answers.map((x) => (x.status === "fulfilled" ? x.value : null));
    // The same token read twice is two rows: one page's object is never another's.
    expect(first).not.toBe(again);
    expect(first?.tags).not.toBe(again?.tags);
    await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: a.id, note: "seen" });
    expect((await read(tokenOf(a))).acknowledgements).toHaveLength(1);
  });

  it("a link holder sees the receipt as its owner does, less the links §9 hides from a link holder", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "read both ways", assignee: sam.name }));
    await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: a.id, note: "seen" });
    const owner = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: a.id });
    const linkHolder = await readArtifactByShareToken(fx.store, fx.world.cairn.config, a.url.split("/s/")[1] as string);
    expect(linkHolder).toEqual({ ...owner, follows: null, produced_by: [], followed_by: [] });
    expect(linkHolder.acknowledgements).toHaveLength(1);
    expect(linkHolder.assignee).toBe(sam.name);
  });

  it("lists by tag with cursor pagination, newest first, only the caller's own", async () => {
    const sam = await fx.world.user("sam");
    const other = await fx.world.user("other");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: `lesson ${i}` }))).id);
    }
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "not a receipt", body: "x" });
    await fx.world.cairn.invoke("receipt_create", other.ctx(), minimalReceipt({ learned: "other's" }));

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { tag: "receipt", limit: 2, ...(cursor && { cursor }) });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
  });

  it("finds artifacts by full-text query", async () => {
    const sam = await fx.world.user("sam");
    const hit = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "The flux capacitor needs calibration" }));
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "Unrelated lesson" }));
    const page = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { q: "capacitor calibration" });
    expect(page.items.map((i) => i.id)).toEqual([hit.id]);
  });

  it("rejects a forged cursor and an out-of-range limit with the field named", async () => {
    const sam = await fx.world.user("sam");
    for (const [input, field] of [
      [{ cursor: "bm9wZQ" }, "cursor"],
      [{ limit: 500 }, "limit"],
    ] as const) {
      const err = await fx.world.cairn.invoke("artifact_search", sam.ctx(), input).catch((e: CairnError) => e);
      expect((err as CairnError).issues?.[0]?.field).toBe(field);
    }
  });
});
