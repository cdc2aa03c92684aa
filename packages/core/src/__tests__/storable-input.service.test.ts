import { describe, expect, it } from "vitest";
import { CairnError } from "../errors.js";
import { OPERATIONS } from "../runtime/registry.js";
import { DRIVERS, fullReceipt, minimalReceipt } from "../testing/index.js";
import { fieldOf, inputWith, KEY, operationStringFields } from "../testing/string-fields.js";
import { storableCopy, UNSTORABLE_REASON } from "../text.js";
import { useTestWorld } from "./helpers.js";

const UNSTORABLE = [
  ["NUL", "a\u0000b"],
  ["lone high surrogate", "a\uD800"],
  ["lone low surrogate", "\uDC00b"],
] as const;

const FIELDS = operationStringFields();

describe("the walk finds the string fields", () => {
  it("covers every operation and the fields hostile input goes into", () => {
    const all = FIELDS.flatMap(({ name, paths }) => paths.map((p) => `${name}:${fieldOf(p, "<key>")}`));
    for (const expected of [
      "receipt_create:title",
      "receipt_create:evidence.0.label",
      "receipt_create:outcome.measure_at",
      "receipt_create:tags.0",
      "artifact_create:body",
      "artifact_search:q",
      "run_append_spans:spans.0.attributes.<key>",
      "run_append_spans:spans.0.attributes.k",
      "run_append_spans:spans.0.attributes.k.0",
      "token_create:name",
      "team_member_add:user",
    ]) {
      expect(all).toContain(expected);
    }
    expect(all.length).toBeGreaterThan(50);
  });
});

describe.each(DRIVERS)("every string field of every operation refuses what cannot be stored, on %s", (driver) => {
  const fx = useTestWorld(driver);

  it.each(UNSTORABLE)("%s: 422 naming the field, never a 500; a refused receipt's drop is listed", async (_label, bad) => {
    const sam = await fx.world.user("nul");
    let checked = 0;
    for (const { name, paths } of FIELDS) {
      for (const path of paths) {
        const keyAs = storableCopy(bad);
        const field = fieldOf(path, keyAs);
        const err = await fx.world.cairn.invoke(name, sam.ctx(), inputWith(path, bad)).then(
          () => new Error(`${name} ${field}: accepted`),
          (e: unknown) => e,
        );
        expect(err, `${name} ${field}`).toBeInstanceOf(CairnError);
        const { code, issues, drop } = err as CairnError;
        expect(code, `${name} ${field}`).toBe("validation_failed");
        const issue = issues?.find((i) => i.field === field);
        expect(issue?.reason, `${name} ${field}: ${JSON.stringify(issues)}`).toContain(UNSTORABLE_REASON);
        if (path.includes(KEY)) expect(issue?.reason).toMatch(/^is a key/);
        if (name === "receipt_create") {
          expect(drop?.id, `${field}: drop`).toBeDefined();
          const listed = await fx.world.cairn.invoke("drops_list", sam.ctx(), { limit: 200 });
          expect(
            listed.items.map((d) => d.id),
            `${field}: drop listed`,
          ).toContain(drop?.id);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("a share token that cannot be stored is refused as invalid, naming the token", async () => {
    const { readArtifactByShareToken } = await import("../artifact/read.js");
    await expect(readArtifactByShareToken(fx.store, fx.world.cairn.config, "ab\u0000cd")).rejects.toMatchObject({
      code: "validation_failed",
      issues: [{ field: "token", reason: UNSTORABLE_REASON }],
    });
  });

  it("a title or model that cannot be stored never suppresses the drop", async () => {
    const sam = await fx.world.user("drop");
    for (const patch of [{ title: "bad\u0000title" }, { model: "m\u0000" }, { changed: "x\u0000 y z" }, { title: "\uD800", model: "\uDC00" }]) {
      const err = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt(patch)).catch((e: CairnError) => e);
      expect((err as CairnError).drop?.id).toBeDefined();
      const listed = await fx.world.cairn.invoke("drops_list", sam.ctx(), { limit: 200 });
      const drop = listed.items.find((d) => d.id === (err as CairnError).drop?.id);
      expect(drop, JSON.stringify(patch)).toBeDefined();
      if ("title" in patch || "changed" in patch) expect(drop?.title).toBeNull();
      if ("model" in patch) expect(drop?.model).toBeNull();
    }
  });
});

describe("invisible-only text and impossible dates", () => {
  const invoke = (input: unknown) => OPERATIONS.receipt_create.input.safeParse(input);

  it.each(["\u200b", "\u200b\u200d\ufeff", "\u0301\u0308", "\u3164", "\u115f\u1160", " \u2800 ", "\u202e\u2066"])(
    "required text made only of invisible characters counts as empty: %j",
    (text) => {
      const result = invoke(fullReceipt({ changed: text }));
      expect(result.success).toBe(false);
      expect(result.error?.issues.find((i) => i.path.join(".") === "changed")?.message).toBe("must not be empty");
    },
  );

  it("visible text with invisible characters in it is kept", () => {
    expect(invoke(fullReceipt({ learned: "e\u0301 and zero\u200bwidth, 한글" })).success).toBe(true);
  });

  it.each(["2026-02-30", "2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-12-01T24:00Z", "2026-12-01T23:60:00Z", "2026-12-01T10:00:00+25:00"])(
    "outcome.measure_at %s is not a real date and is refused",
    (measure_at) => {
      const result = invoke(fullReceipt({ outcome: { status: "pending", measure_at } }));
      expect(result.success, measure_at).toBe(false);
    },
  );

  it.each(["2024-02-29", "2026-12-31", "2026-12-01T23:59:59Z", "2026-12-01T09:00:00.123+02:00"])("outcome.measure_at %s is accepted", (measure_at) => {
    expect(invoke(fullReceipt({ outcome: { status: "pending", measure_at } })).success).toBe(true);
  });

  it.each(["2026-02-30T10:00:00Z", "2026-02-28T24:00:00Z", "2026-13-01T10:00:00Z", "2026-02-28"])("span start_time %s is refused", (start_time) => {
    const result = OPERATIONS.run_append_spans.input.safeParse({ run_id: "run_x", spans: [{ span_id: "a", name: "n", start_time }] });
    expect(result.success).toBe(false);
  });
});
