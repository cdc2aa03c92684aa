import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_PAGE_SIZE } from "../artifact/export.js";
import type { Artifact } from "../artifact/schemas.js";
import type { Principal } from "../context.js";
import { CairnError } from "../errors.js";
import { newId } from "../ids.js";
import { pagesOf } from "../runtime/paging.js";
import type { Store } from "../store/port.js";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestWorld } from "../testing/index.js";

const DAY_MS = 86_400_000;

describe.each(DRIVERS)("export and retain on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  let clock = Date.now();
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store, () => new Date(clock));
  });
  afterAll(async () => store?.close());

  /** Puts two users in a new team, and returns their principals as the server now sees them. */
  async function team(): Promise<{ name: string; a: Principal; b: Principal }> {
    const a = await world.user("ta");
    const b = await world.user("tb");
    const name = `crew-${a.name.slice(-8)}`;
    const id = newId("team");
    await store.query("insert into teams (id, name) values ($1, $2)", [id, name]);
    for (const u of [a, b]) {
      await store.query("insert into team_members (team_id, user_id) values ($1, $2)", [id, u.principal.user.id]);
    }
    const reauth = async (token: string) => (await world.cairn.authenticate(token)) as Principal;
    return { name, a: await reauth(a.token), b: await reauth(b.token) };
  }

  it("retain makes a receipt permanent and the change reads back", async () => {
    const sam = await world.user("sam");
    const created = await world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "keep me" }));
    expect(created.retained).toBe(false);
    expect(created.expires_at).not.toBeNull();

    const kept = await world.cairn.invoke("artifact_retain", sam.ctx(), { id: created.id });
    expect(kept).toMatchObject({ id: created.id, retained: true, expires_at: null, checksum: created.checksum });
    const again = await world.cairn.invoke("artifact_retain", sam.ctx(), { id: created.id });
    expect(again).toEqual(kept);

    clock += 30 * DAY_MS;
    try {
      const read = await world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
      expect(read).toEqual(kept);
    } finally {
      clock -= 30 * DAY_MS;
    }
  });

  it("only the owner or its team may retain; others get the not-found of a missing id", async () => {
    const sam = await world.user("sam");
    const eve = await world.user("eve");
    const created = await world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "not eve's" }));
    const err = await world.cairn.invoke("artifact_retain", eve.ctx(), { id: created.id }).catch((e: CairnError) => e);
    const missing = await world.cairn.invoke("artifact_retain", eve.ctx(), { id: "art_00000000000000000000000000" }).catch((e: CairnError) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).toBody()).toEqual((missing as CairnError).toBody());
    expect((err as CairnError).code).toBe("not_found");
    const read = await world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    expect(read.retained).toBe(false);

    const crew = await team();
    const owned = await world.cairn.invoke("receipt_create", world.cairn.context(crew.a, "cli"), minimalReceipt({ owner: `team:${crew.name}` }));
    const kept = await world.cairn.invoke("artifact_retain", world.cairn.context(crew.b, "rest"), { id: owned.id });
    expect(kept).toMatchObject({ owner: `team:${crew.name}`, retained: true, expires_at: null });
  });

  it("an expired artifact cannot be revived by retain: 410 gone", async () => {
    const sam = await world.user("sam");
    const created = await world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "too late" }));
    clock += 8 * DAY_MS;
    try {
      const err = await world.cairn.invoke("artifact_retain", sam.ctx(), { id: created.id }).catch((e: CairnError) => e);
      expect((err as CairnError).code).toBe("gone");
    } finally {
      clock -= 8 * DAY_MS;
    }
    const [row] = await store.query<{ retained: boolean }>("select retained from artifacts where id = $1", [created.id]);
    expect(row?.retained).toBe(false);
  });

  it("export walks every page newest first, scoped to the caller and the tag", async () => {
    const sam = await world.user("sam");
    const other = await world.user("other");
    const ids: string[] = [];
    for (let i = 0; i < EXPORT_PAGE_SIZE + 3; i++) {
      clock += 1; // ids order by millisecond; within one, their order is random
      const a = await world.cairn.invoke("artifact_create", sam.ctx(), { title: `log ${i}`, body: `line ${i}`, tags: ["nightly"] });
      ids.push(a.id);
    }
    await world.cairn.invoke("artifact_create", sam.ctx(), { title: "untagged", body: "x" });
    await world.cairn.invoke("artifact_create", other.ctx(), { title: "other's", body: "x", tags: ["nightly"] });

    const pages = [];
    for await (const page of pagesOf(world.cairn, "artifact_export", sam.ctx(), { tag: "Nightly" })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([EXPORT_PAGE_SIZE, 3]);
    expect(pages.flatMap((p) => (p.items as Artifact[]).map((i) => i.id))).toEqual([...ids].reverse());
    expect(pages.at(-1)?.next_cursor).toBeNull();

    const everything: Artifact[] = [];
    for await (const page of pagesOf(world.cairn, "artifact_export", sam.ctx(), {})) everything.push(...(page.items as Artifact[]));
    expect(everything).toHaveLength(ids.length + 1);
    expect(everything.every((a) => a.owner === `user:${sam.name}`)).toBe(true);
  });

  it("export leaves expired artifacts out and rejects unknown input with the field named", async () => {
    const sam = await world.user("sam");
    await world.cairn.invoke("artifact_create", sam.ctx(), { title: "old", body: "x", tags: ["aging"] });
    clock += 8 * DAY_MS;
    try {
      const fresh = await world.cairn.invoke("artifact_create", sam.ctx(), { title: "new", body: "y", tags: ["aging"] });
      const page = await world.cairn.invoke("artifact_export", sam.ctx(), { tag: "aging" });
      expect((page.items as Artifact[]).map((i) => i.id)).toEqual([fresh.id]);
    } finally {
      clock -= 8 * DAY_MS;
    }
    const err = await world.cairn.invoke("artifact_export", sam.ctx(), { q: "words" }).catch((e: CairnError) => e);
    expect((err as CairnError).issues).toEqual([{ field: "q", reason: "is not a known field" }]);
  });
});
