import { type Artifact, artifactSummaryOf, type Cairn, CairnError, RUN_PAGE_SPANS, runPageOf, runRowOf, type ServiceContext } from "@cairn/core";
import type { Context, Hono } from "hono";
import { type WebEnv, webContext } from "../adapter.js";
import { type BinQuery, binPage } from "../pages/bin.js";
import { doctorPage } from "../pages/doctor.js";
import type { Chrome } from "../pages/layout.js";
import { runPage } from "../pages/run.js";
import { RUN_QUERY_KEYS, type RunsQuery, runsPage } from "../pages/runs.js";
import { formIsGenuine, sessionOf, type WebSession } from "../session.js";
import { formLimit, refusedForm } from "./auth.js";

export const BIN_PAGE_SIZE = 25;
const PRODUCED_LOOKUPS = 50;
const SIBLING_RUNS = 10;
const DOCTOR_DROPS = 20;

/** Why a linked artifact has no title to show: it is gone, expired or not the viewer's. */
const UNSHOWN = new Set(["not_found", "gone", "forbidden"]);

/**
 * The title of a linked artifact (one a run produced, a follow-up, the receipt it follows),
 * or null when there is none to show. Only an answer about the artifact itself is null: an
 * outage (503) or a fault (500) propagates, so the page reads as the outage it is instead
 * of as a list of missing titles.
 */
export async function linkedTitle(cairn: Cairn, ctx: ServiceContext, id: string): Promise<string | null> {
  try {
    return (await cairn.invoke("artifact_read", ctx, { id })).title;
  } catch (err) {
    if (err instanceof CairnError && UNSHOWN.has(err.code)) return null;
    throw err;
  }
}

type SignedIn = (c: Context, ctx: ServiceContext, chrome: Chrome, session: WebSession) => Promise<Response>;

/** Runs the handler for a signed-in person; anyone else is sent to the sign-in form and back. */
export function signedIn(cairn: Cairn, handler: SignedIn) {
  return async (c: Context<WebEnv>) => {
    const session = await sessionOf(cairn, c);
    if (!session) {
      const url = new URL(c.req.url);
      // A form posted after the session ended cannot be replayed: come back to the bin.
      const next = c.req.method === "GET" ? `${url.pathname}${url.search}` : "/";
      return c.redirect(next === "/" ? "/signin" : `/signin?next=${encodeURIComponent(next)}`, 303);
    }
    const chrome: Chrome = { user: session.principal.user.name, formToken: session.formToken };
    return handler(c, webContext(cairn, session.principal, c.get("requestId")), chrome, session);
  };
}

/** The bin's filters, passed to core's search as they are (it validates them); the rest of the query string is ignored. */
const BIN_FILTERS = ["q", "tag", "human_action", "outcome", "created_after"] as const;

export const rawResponse = (c: Context, artifact: Artifact) => {
  c.header("Content-Type", "text/plain; charset=utf-8");
  return c.body(artifact.body);
};

export function mountPages(app: Hono<WebEnv>, cairn: Cairn): void {
  app.get(
    "/",
    signedIn(cairn, async (c, ctx, chrome) => {
      const query: BinQuery & { cursor?: string } = {};
      for (const key of BIN_FILTERS) {
        const v = c.req.query(key)?.trim();
        if (v) query[key] = v;
      }
      const cursor = c.req.query("cursor");
      if (cursor) query.cursor = cursor;
      const page = await cairn.invoke("artifact_search", ctx, { ...query, limit: BIN_PAGE_SIZE, fields: "summary" });
      const now = ctx.now();
      const rows = page.items.map((a) => artifactSummaryOf(a, now));
      return c.html(binPage(rows, page.next_cursor, query, chrome));
    }),
  );

  app.get(
    "/a/:id/raw",
    signedIn(cairn, async (c, ctx) => rawResponse(c, await cairn.invoke("artifact_read", ctx, { id: c.req.param("id") }))),
  );

  app.get(
    "/runs",
    signedIn(cairn, async (c, ctx, chrome) => {
      // The filters go to core as they are (it validates them); the rest of the query string is ignored.
      const query: RunsQuery = {};
      for (const key of RUN_QUERY_KEYS) {
        const v = c.req.query(key)?.trim();
        if (v) query[key] = v;
      }
      const cursor = c.req.query("cursor");
      if (cursor) query.cursor = cursor;
      const page = await cairn.invoke("run_list", ctx, { ...query, limit: BIN_PAGE_SIZE } as Parameters<typeof cairn.invoke<"run_list">>[2]);
      const now = ctx.now();
      return c.html(
        runsPage(
          page.items.map((r) => runRowOf(r, now)),
          page.next_cursor,
          query,
          chrome,
        ),
      );
    }),
  );

  app.get(
    "/runs/:id",
    signedIn(cairn, async (c, ctx, chrome) => {
      // A page of spans in start order: a 10,000-span run is read and drawn 500 spans at a time.
      const spansCursor = c.req.query("spans");
      const run = await cairn.invoke("run_read", ctx, {
        run_id: c.req.param("id"),
        spans_limit: RUN_PAGE_SPANS,
        ...(spansCursor ? { spans_cursor: spansCursor } : {}),
      });
      const siblings = run.conversation_id ? (await cairn.invoke("run_list", ctx, { conversation: run.conversation_id, limit: SIBLING_RUNS + 1 })).items : [];
      const titles = new Map<string, string | null>();
      for (const p of run.produced.slice(0, PRODUCED_LOOKUPS)) titles.set(p.artifact_id, await linkedTitle(cairn, ctx, p.artifact_id));
      const at = spansCursor ? Number.parseInt(c.req.query("at") ?? "0", 10) : 0;
      return c.html(runPage(runPageOf(run, ctx.now(), { at: Number.isFinite(at) ? at : 0, siblings }), titles, chrome));
    }),
  );

  app.get(
    "/doctor",
    signedIn(cairn, async (c, ctx, chrome) => {
      const doctor = await cairn.invoke("doctor", ctx, {});
      const drops = await cairn.invoke("drops_list", ctx, { limit: DOCTOR_DROPS });
      const done = c.req.query("dismissed");
      const notice = done === undefined ? null : `Dismissed ${done} drop${done === "1" ? "" : "s"}: they stay listed and no longer warn.`;
      return c.html(doctorPage(doctor.checks, drops.items, chrome, notice));
    }),
  );

  // The doctor page's one write: a person dismisses the drops listed (up to the newest shown), with the form token.
  app.post(
    "/doctor/dismiss",
    formLimit,
    signedIn(cairn, async (c, ctx, _chrome, session) => {
      const form = await c.req.parseBody();
      if (!formIsGenuine(c, session, typeof form.csrf === "string" ? form.csrf : undefined)) return c.html(refusedForm(), 403);
      const before = typeof form.before === "string" && form.before !== "" ? form.before : undefined;
      const answer = await cairn.invoke("drops_dismiss", ctx, { ...(before !== undefined && { before }) });
      return c.redirect(`/doctor?dismissed=${answer.dismissed}`, 303);
    }),
  );
}
