import { describe, expect, it } from "vitest";
import { readLinkHolderRow } from "../artifact/link-holder-reads.js";
import { readArtifactByShareToken } from "../artifact/read.js";
import { DRIVERS, fullReceipt, minimalReceipt } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/**
 * The embedded store answers a share page's row again while nothing was written since it
 * was read (ADR 0068). Whatever the store, a page shows every change the moment it is made:
 * these run on both, and on PostgreSQL (which keeps nothing) they must hold just the same.
 */
describe.each(DRIVERS)("share pages after a change, on %s", (driver) => {
  const fx = useTestWorld(driver);
  const tokenOf = (url: string) => url.split("/s/")[1] as string;
  const read = (token: string, now?: Date) => readArtifactByShareToken(fx.store, fx.world.cairn.config, token, now);

  it("an acknowledgement, an assignee, a retention and a measured outcome show on the next read", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim], "kept-rows");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ owner: team, learned: "kept rows" }));
    const token = tokenOf(a.url);
    expect((await read(token)).acknowledgements).toEqual([]);
    expect((await read(token)).acknowledgements).toEqual([]);

    await fx.world.cairn.invoke("artifact_acknowledge", kim.ctx(), { id: a.id, note: "seen" });
    expect((await read(token)).acknowledgements.map((k) => k.note)).toEqual(["seen"]);

    await fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: a.id, assignee: kim.name });
    expect((await read(token)).assignee).toBe(kim.name);

    await fx.world.cairn.invoke("artifact_retain", sam.ctx(), { id: a.id });
    expect((await read(token)).retained).toBe(true);

    expect((await read(token)).followed).toBe(false);
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ owner: team, follows: a.id, learned: "measured it" }));
    expect((await read(token)).followed).toBe(true);
  });

  it("a page read before its receipt expires is gone once it has, without any write in between", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "expires" }));
    const token = tokenOf(a.url);
    expect((await read(token, new Date(Date.parse(a.expires_at as string) - 1000))).id).toBe(a.id);
    await expect(read(token, new Date(Date.parse(a.expires_at as string) + 1000))).rejects.toMatchObject({ code: "gone" });
  });

  it("a token that matches nothing stays not found, and a kept row cannot be changed by a reader", async () => {
    await expect(read("no-such-token-00000000000000000000000000000")).rejects.toMatchObject({ code: "not_found" });
    await expect(read("no-such-token-00000000000000000000000000000")).rejects.toMatchObject({ code: "not_found" });
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "frozen", tags: ["one"] }));
    const first = await read(tokenOf(a.url));
    const tags = [...first.tags];
    // A kept row is frozen, so a reader that tries fails loudly (a fresh row may simply change).
    const tried = (() => {
      try {
        (first.tags as string[]).push("two");
        return "changed";
      } catch (err) {
        return err instanceof TypeError ? "refused" : "other";
      }
    })();
    expect(tried).toBe(driver === "pglite" ? "refused" : "changed");
    expect((await read(tokenOf(a.url))).tags).toEqual(tags);
  });

  it.runIf(driver === "pglite")("the embedded store answers a row again only while its change count stands still", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "counted" }));
    const token = tokenOf(a.url);
    const first = await readLinkHolderRow(fx.store, token);
    expect(await readLinkHolderRow(fx.store, token)).toBe(first);
    // Any statement moves the count, a plain read too: it cannot tell one that writes.
    await fx.store.query("select 1");
    const afterStatement = await readLinkHolderRow(fx.store, token);
    expect(afterStatement).not.toBe(first);
    expect(afterStatement).toEqual(first);
    // A write sent while the row is read: the row read then is not kept.
    const [during] = await Promise.all([readLinkHolderRow(fx.store, token), fx.store.query("select 1")]);
    expect(await readLinkHolderRow(fx.store, token)).not.toBe(during);
  });
});
