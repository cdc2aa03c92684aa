import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { signIn, useWeb } from "./helpers.js";

const span = (id: string, extra: Record<string, unknown> = {}) => ({
  span_id: id,
  name: "write-receipt",
  start_time: "2026-11-01T10:00:00Z",
  end_time: "2026-11-01T10:00:03Z",
  ...extra,
});

describe("the run page's produced artifacts", () => {
  const fx = useWeb();

  async function runProducing(learned: string) {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned }));
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "nightly" });
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), { run_id: run.id, spans: [span("root", { produced_artifact_id: receipt.id })] });
    return { sam, receipt, run };
  }

  it("shows the title of what the run produced", async () => {
    const { sam, receipt, run } = await runProducing("shown on the run page");
    const page = await (await (await signIn(fx.app, sam)).request(`/runs/${run.id}`)).text();
    expect(page).toContain(receipt.title);
  });

  it("an artifact that expired is shown without its title, and the page answers", async () => {
    const { sam, receipt, run } = await runProducing("expired since");
    await fx.store.query("update artifacts set expires_at = now() - interval '1 minute' where id = $1", [receipt.id]);
    const res = await (await signIn(fx.app, sam)).request(`/runs/${run.id}`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(receipt.title);
  });

  it("when the artifacts cannot be read, the page says something went wrong instead of showing missing titles", async () => {
    const { sam, run } = await runProducing("unreadable");
    const b = await signIn(fx.app, sam);
    await fx.store.query("alter table artifacts rename to artifacts_away");
    try {
      const res = await b.request(`/runs/${run.id}`);
      expect(res.status).toBe(500);
      expect(await res.text()).toContain("Something went wrong");
    } finally {
      await fx.store.query("alter table artifacts_away rename to artifacts");
    }
  });
});
