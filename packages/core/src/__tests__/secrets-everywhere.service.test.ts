import { describe, expect, it } from "vitest";
import { LIMITS } from "../limits.js";
import { PLANTED } from "../secrets/__tests__/planted.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const { ghp, awsKeyId, npm } = PLANTED;
const span = (span_id: string, extra: Record<string, unknown> = {}) => ({
  span_id,
  name: "step",
  start_time: "2026-11-01T10:00:00Z",
  ...extra,
});

describe.each(DRIVERS)("every persisted string of every verb is scanned, on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("plain artifacts: title, body, tags (as sent) and model are redacted under the default policy", async () => {
    const sam = await fx.world.user("art");
    const created = await fx.world.cairn.invoke("artifact_create", sam.ctx(), {
      title: `deploy ${ghp}`,
      body: `the key was ${npm}\nand more`,
      tags: ["ops", awsKeyId],
      model: `m-${ghp}`,
    });
    const stored = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    const text = JSON.stringify(stored);
    for (const secret of [ghp, npm]) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain(awsKeyId.toLowerCase());
    expect(stored.title).toBe("deploy [REDACTED:github]");
    expect(stored.tags).toEqual(["ops", "redacted:aws"]);
    expect(stored.checksum).toMatch(/^sha256:/);
    expect(created.redactions.map((r) => r.field).sort()).toEqual(["body", "model", "tags.1", "title"]);
  });

  it("plain artifacts follow the owner's block policy: 422 naming the field", async () => {
    const sam = await fx.world.user("blk");
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { secrets: "block" });
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "fine", body: `x ${ghp}` }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "body", reason: "contains a secret (github); the owner's policy blocks secrets" }]);
    expect(JSON.stringify(err.toBody())).not.toContain(ghp);
  });

  it("runs and spans: the run name, span names, attribute keys and string values are redacted", async () => {
    const sam = await fx.world.user("run");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: `export ${ghp}` });
    expect(run.name).toBe("export [REDACTED:github]");
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [span("a", { name: `call ${npm}`, attributes: { [ghp]: 1, env: `k=${npm}`, list: ["ok", awsKeyId], n: 3 } })],
    });
    // A retried batch is still recognised as the same spans.
    const again = await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [span("a", { name: `call ${npm}`, attributes: { [ghp]: 1, env: `k=${npm}`, list: ["ok", awsKeyId], n: 3 } })],
    });
    expect(again.unchanged).toBe(1);
    const read = await fx.world.cairn.invoke("run_read", sam.ctx(), { run_id: run.id });
    const text = JSON.stringify(read);
    for (const secret of [ghp, npm, awsKeyId]) expect(text).not.toContain(secret);
    expect(read.spans[0]?.attributes).toEqual({ "[REDACTED:github]": 1, env: "k=[REDACTED:npm]", list: ["ok", "[REDACTED:aws]"], n: 3 });
  });

  it("token names are redacted (no owner policy applies: always redact)", async () => {
    const sam = await fx.world.user("tok");
    const token = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: `ci ${ghp}`, kind: "agent" });
    expect(token.name).toBe("ci [REDACTED:github]");
  });

  it("a receipt over the scan limits is refused with the limit named, and its drop is listed", async () => {
    const sam = await fx.world.user("lim");
    const many = Array.from({ length: LIMITS.secretHits + 1 }, (_, i) => `ghp_${String(i).padStart(8, "0")}${ghp.slice(4, 32)}`);
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ details: many.join("\n") })));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([expect.objectContaining({ field: "(input)", limit: LIMITS.secretHits })]);
    const listed = await fx.world.cairn.invoke("drops_list", sam.ctx(), {});
    expect(listed.items.map((d) => d.id)).toContain(err.drop?.id);
  });
});
