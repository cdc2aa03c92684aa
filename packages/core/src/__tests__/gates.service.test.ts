import { describe, expect, it } from "vitest";
import { classifyDrop, type DropCategory, faultOf } from "../drops/classification.js";
import { WITHHELD_TITLE } from "../drops/schemas.js";
import type { GateContext, ReceiptGate } from "../receipt/custom-gate.js";
import { PLANTED } from "../secrets/__tests__/planted.js";
import { DRIVERS, minimalReceipt, TEST_PUBLIC_URL, type TestUser, type TestWorld } from "../testing/index.js";
import { captureConsole, rejectionOf, useTestWorld } from "./helpers.js";

const MARKER = "ZQX-MARKER-7f3a9";

// Operator gates: one with a reason outside the categories, one naming a known category.
const seen: GateContext[] = [];
const GATES: ReceiptGate[] = [
  {
    name: "records-context",
    check: (_r, ctx) => {
      seen.push(ctx);
      return null;
    },
  },
  { name: "no-friday-deploys", check: (r) => (r.tags.includes("gate-veto") ? { reason: "deploy freeze", category: "freeze" } : null) },
  {
    name: "needs-affected-team",
    check: (r) => (r.tags.includes("gate-known") ? { reason: "name the team", category: "invalid", fields: ["affected"] } : null),
  },
];

type Case = { category: DropCategory; code: string; fields: string[]; submit(u: TestUser, w: TestWorld): Promise<unknown> };

/** One real submission per category, each with the marker in the rejected field values. */
const CASES: Case[] = [
  {
    category: "invalid",
    code: "validation_failed",
    fields: ["before"],
    submit: async (u, w) => w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ before: `${MARKER}${"x".repeat(4001)}` })),
  },
  {
    category: "unknown-schema",
    code: "unknown_schema",
    fields: ["schema"],
    submit: async (u, w) => w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ schema: `${MARKER}/v1` })),
  },
  {
    category: "unsafe-link",
    code: "validation_failed",
    fields: ["evidence.0.url"],
    submit: async (u, w) => w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ evidence: [{ label: MARKER, url: `ftp://${MARKER}.example` }] })),
  },
  {
    category: "too-thin",
    code: "validation_failed",
    fields: ["changed"],
    submit: async (u, w) => w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ changed: `${MARKER} done` })),
  },
  {
    category: "foreign-link",
    code: "validation_failed",
    fields: ["follows"],
    submit: async (u, w) => {
      const other = await w.user("other");
      const theirs = await w.cairn.invoke("receipt_create", other.ctx(), minimalReceipt({ learned: "theirs" }));
      return w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ follows: theirs.id, before: MARKER }));
    },
  },
  {
    category: "secret-detected",
    code: "validation_failed",
    fields: ["before"],
    submit: async (u, w) => {
      await w.cairn.invoke("policy_set", u.ctx(), { secrets: "block" });
      return w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ before: `${MARKER} ${PLANTED.ghp}` }));
    },
  },
  {
    category: "policy-vetoed",
    code: "validation_failed",
    fields: ["evidence"],
    submit: async (u, w) => {
      await w.cairn.invoke("policy_set", u.ctx(), { require_evidence: true });
      return w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ before: MARKER }));
    },
  },
  {
    category: "duplicate",
    code: "duplicate",
    fields: [],
    submit: async (u, w) => {
      await w.cairn.invoke("receipt_create", u.ctx(), minimalReceipt({ before: MARKER }));
      return w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ before: MARKER }));
    },
  },
  {
    category: "unknown",
    code: "validation_failed",
    fields: ["(input)"],
    submit: async (u, w) => w.cairn.invoke("receipt_create", u.ctx("mcp"), minimalReceipt({ before: MARKER, tags: ["gate-veto"] })),
  },
];

describe.each(DRIVERS)("receipt gates and drop receipts on %s", (driver) => {
  const fx = useTestWorld(driver, { gates: GATES });

  it.each(CASES)("$category: refused with a persisted drop that names only field paths", async ({ category, code, fields, submit }) => {
    const sam = await fx.world.user("sam");
    const { result: err, output } = await captureConsole(() => rejectionOf(submit(sam, fx.world)));
    expect(err.code).toBe(code);
    expect(err.drop).toMatchObject({ category, fields, owner: `user:${sam.name}`, surface: "mcp", actor: { id: sam.principal.token.id } });
    expect(err.drop?.id).toMatch(/^drp_/);

    // Listed on the surface it came through, the drop reads back as returned; on another
    // surface only the next action's phrasing changes, to that reader's words.
    const listed = await fx.world.cairn.invoke("drops_list", sam.ctx("mcp"), {});
    expect(listed.items).toEqual([err.drop]);
    const onRest = await fx.world.cairn.invoke("drops_list", sam.ctx("rest"), {});
    expect(onRest.items).toEqual([{ ...err.drop, next_action: classifyDrop(category, "rest", faultOf(err.issues?.[0]), TEST_PUBLIC_URL).next_action }]);
    const doctor = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    const status = await fx.world.cairn.invoke("status", sam.ctx(), {});
    expect(status.drops.counts).toEqual({ [category]: 1 });
    for (const text of [JSON.stringify(err.toBody()), JSON.stringify(listed), JSON.stringify(doctor), JSON.stringify(status), output]) {
      expect(text).not.toContain(MARKER);
    }
    const rows = await fx.store.query<Record<string, unknown>>("select * from drops where owner = $1", [`user:${sam.name}`]);
    expect(JSON.stringify(rows)).not.toContain(MARKER);
  });

  it("a custom gate sees the narrow GateContext: actor, surface, time and request id — no store, no raw input", async () => {
    const sam = await fx.world.user("sam");
    seen.length = 0;
    await fx.world.cairn.invoke("receipt_create", sam.ctx("mcp", { requestId: "req-gate-1" }), minimalReceipt({ learned: "gate context" }));
    expect(seen).toHaveLength(1);
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(["actor", "now", "requestId", "surface"]);
    expect(seen[0]).toMatchObject({ actor: { user: sam.name, kind: "human" }, surface: "mcp", requestId: "req-gate-1" });
  });

  it("a custom gate naming a known category keeps it; its reason and fields reach the caller", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ tags: ["gate-known"] })));
    expect(err.drop?.category).toBe("invalid");
    expect(err.issues).toEqual([{ field: "affected", reason: "name the team" }]);
  });

  it("a ghp_ token in the title is withheld in the drop, and the title is kept when clean", async () => {
    const sam = await fx.world.user("sam");
    const leaky = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ title: `Rotated ${PLANTED.ghp}`, learned: "" })));
    expect(leaky.drop).toMatchObject({ title: WITHHELD_TITLE, title_withheld: true, fields: ["learned"] });
    const clean = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ title: "Rotated the key", learned: "" })));
    expect(clean.drop).toMatchObject({ title: "Rotated the key", title_withheld: false });
    expect(JSON.stringify(await fx.world.cairn.invoke("drops_list", sam.ctx(), {}))).not.toContain(PLANTED.ghp);
  });

  it("withholds titles with the owner's own scanner settings (entropy detection)", async () => {
    const sam = await fx.world.user("sam");
    const raw = minimalReceipt({ title: `Session ${PLANTED.random} expired`, learned: "" });
    const off = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), raw));
    expect(off.drop?.title_withheld).toBe(false);
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { entropy_detection: true });
    const on = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), raw));
    expect(on.drop).toMatchObject({ title: WITHHELD_TITLE, title_withheld: true });
  });

  it("an unknown field whose name is a secret is withheld from the drop's paths", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt(), [PLANTED.ghp]: 1 }));
    expect(err.drop?.fields).toEqual(["(withheld field name)"]);
    expect(JSON.stringify(await fx.world.cairn.invoke("drops_list", sam.ctx(), {}))).not.toContain(PLANTED.ghp);
  });

  it("a title that is itself a failing field is not kept", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ title: `${MARKER}${"t".repeat(200)}` })));
    expect(err.drop).toMatchObject({ title: null, title_withheld: false, fields: ["title"] });
  });

  it("a drop belongs to the targeted team when the caller is a member, else to the caller", async () => {
    const sam = await fx.world.user("sam");
    const team = await fx.world.team([sam]);
    const mine = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ owner: team, learned: "" })));
    expect(mine.drop?.owner).toBe(team);
    const stranger = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ owner: "team:strangers" })));
    expect(stranger.code).toBe("forbidden");
    expect(stranger.drop).toMatchObject({ owner: `user:${sam.name}`, category: "invalid", fields: ["owner"] });
  });
});
