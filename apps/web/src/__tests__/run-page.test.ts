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

describe("runs people can read (SPEC §28) on the web", () => {
  const fx = useWeb();

  /**
   * Until span append keeps the 0017 totals as spans arrive (the otlp branch), the run row's
   * totals are set here as ingest would have set them; the page reads only the row.
   */
  async function withTotals(runId: string, totals: { spans: number; errors: number; input: number; output: number; models: string[]; conversation?: string }) {
    await fx.store.query(
      `update runs set span_count = $2, error_count = $3, input_tokens = $4, output_tokens = $5, models = $6::text[],
              first_start_at = '2026-11-01T10:00:00Z', last_end_at = '2026-11-01T10:00:02.5Z', ended_at = '2026-11-01T10:00:02.5Z',
              conversation_id = $7
        where id = $1 and span_count = 0`,
      [runId, totals.spans, totals.errors, totals.input, totals.output, totals.models, totals.conversation ?? null],
    );
  }

  it("shows state and totals at the top, each receipt once however it was linked, and the spans as a <details> tree", async () => {
    const sam = await fx.world.user("sam");
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const receipt = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx("rest", { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }),
      minimalReceipt({ learned: "linked twice, shown once" }),
    );
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "planner" });
    // The REST run gets the trace's id as an OTLP run would have it, so the traceparent names it too.
    await fx.store.query("update runs set trace_id = $2 where id = $1", [run.id, traceId]);
    await fx.world.cairn.invoke("run_append_spans", sam.ctx(), {
      run_id: run.id,
      spans: [
        span("00f067aa0ba902b7", { name: "invoke_agent" }),
        span("c1", {
          parent_span_id: "00f067aa0ba902b7",
          name: "chat",
          attributes: { "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 10 },
        }),
        span("c2", {
          parent_span_id: "c1",
          name: "deeper",
          attributes: { "gen_ai.response.model": "gpt-4o-mini", "gen_ai.usage.input_tokens": 200, "gen_ai.usage.output_tokens": 20 },
        }),
        span("c3", { parent_span_id: "c2", name: "deepest", produced_artifact_id: receipt.id }),
        span("c4", { parent_span_id: "c3", name: "leaf" }),
      ],
    });
    const page = await (await (await signIn(fx.app, sam)).request(`/runs/${run.id}`)).text();
    expect(page).toContain('<span class="pill calm">Ended</span>');
    expect(page).toContain("300 input · 30 output");
    expect(page).toContain("gpt-4o, gpt-4o-mini");
    expect(page.split(receipt.title).length - 1).toBe(1);
    expect(page).toContain("by span and traceparent");
    expect(page).toContain('<details class="children" open><summary>4 spans under invoke_agent');
    // Past depth 3 the tree starts collapsed.
    expect(page).toContain('<details class="children"><summary>1 span under deepest');
  });

  it("filters /runs and links the runs of one conversation", async () => {
    const sam = await fx.world.user("sam");
    const failed = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "failed-one" });
    const fine = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "fine-one" });
    await withTotals(failed.id, { spans: 2, errors: 1, input: 0, output: 0, models: [], conversation: "conv-9" });
    await withTotals(fine.id, { spans: 2, errors: 0, input: 0, output: 0, models: [], conversation: "conv-9" });
    const b = await signIn(fx.app, sam);
    const errors = await (await b.request("/runs?error=true")).text();
    expect(errors).toContain("failed-one");
    expect(errors).not.toContain("fine-one");
    const conversation = await (await b.request("/runs?conversation=conv-9")).text();
    expect(conversation).toContain("failed-one");
    expect(conversation).toContain("fine-one");
    const page = await (await b.request(`/runs/${fine.id}`)).text();
    expect(page).toContain("In the same conversation");
    expect(page).toContain(`href="/runs/${failed.id}"`);
  });

  it("a 10,000-span run's page answers within a second, a page of the tree at a time", async () => {
    const sam = await fx.world.user("sam");
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "huge" });
    // 10,000 spans: 100 agent turns of 99 steps each under one root, inserted as stored rows.
    await fx.store.query(
      `insert into spans (run_id, span_id, parent_span_id, name, start_time, end_time, attributes, appended_at)
       select $1, 's' || i, case when i = 0 then null when i % 100 = 1 then 's0' else 's' || (i - 1) end, 'step ' || i,
              timestamptz '2026-11-01T10:00:00Z' + i * interval '1 millisecond', timestamptz '2026-11-01T10:00:00Z' + (i + 5) * interval '1 millisecond',
              json_build_object('gen_ai.request.model', 'gpt-4o', 'i', i), now()
         from generate_series(0, 9999) i`,
      [run.id],
    );
    await fx.store.query("update runs set span_count = 10000 where id = $1", [run.id]);
    const b = await signIn(fx.app, sam);
    await b.request(`/runs/${run.id}`); // warm
    const started = performance.now();
    const res = await b.request(`/runs/${run.id}`);
    const page = await res.text();
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(1000);
    expect(page).toContain("Spans 1–500 of 10,000, by start time");
    expect(page).toContain('<details class="children" open><summary>99 spans under step 1<');
    // Walk every page by its "Next spans" link: 20 pages of 500, every span once.
    let href = page.match(/href="([^"]+)" rel="next"/)?.[1]?.replaceAll("&amp;", "&");
    let pages = 1;
    let last = page;
    while (href && pages < 25) {
      last = await (await b.request(href)).text();
      pages++;
      href = last.match(/href="([^"]+)" rel="next"/)?.[1]?.replaceAll("&amp;", "&");
    }
    expect(pages).toBe(20);
    expect(last).toContain("Spans 9,501–10,000 of 10,000");
    expect(last).toContain("under a span on an earlier page");
    console.log(`10,000-span run page: ${ms.toFixed(0)} ms, ${page.length} bytes`);
  });
});
