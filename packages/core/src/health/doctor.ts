import type { z } from "zod";
import type { ServiceContext, Surface } from "../context.js";
import { readableInstant } from "../dates.js";
import { classifyDrop, DROP_CATEGORIES } from "../drops/classification.js";
import { countDrops, type DropCount, windowStart } from "../drops/list.js";
import { DROP_WINDOW_DAYS } from "../drops/schemas.js";
import { SURFACE_WORDS } from "../drops/surface-words.js";
import { webhooksCheck } from "../events/doctor.js";
import { visibleOwners } from "../identity/authorize.js";
import { inboxCheck, staleAsksOf, summarizeInbox } from "../inbox/summary.js";
import { lastSweep } from "../lifecycle/sweep.js";
import { defaultLogger } from "../log.js";
import { notificationsCheck } from "../notify/doctor.js";
import type { Policy } from "../policy/schemas.js";
import { loadPolicies } from "../policy/store.js";
import { isUnavailable } from "../store/faults.js";
import { rollupLine, totalsByCategory } from "./rollup.js";
import type { Doctor, DoctorCheck } from "./schemas.js";

/**
 * The policy rules that can veto a receipt, and how to tell that each is still on. Keyed
 * by the `rule` a policy-vetoed drop records; a new rule adds its row here.
 */
const VETO_RULES: Record<string, { isOn(p: Policy): boolean; fix(owner: string): string }> = {
  require_evidence: {
    isOn: (p) => p.require_evidence,
    fix: (owner) => `Link evidence in those receipts, or turn the rule off: \`cairn policy set require_evidence false --owner ${owner}\` (PUT /v1/policy).`,
  },
};

const logOf = (ctx: ServiceContext) => ctx.logger ?? defaultLogger;

/** A check that could not be made: logged once, by code and the check's name, and shown as that check's `fail`. */
function failedCheck(ctx: ServiceContext, name: string, summary: string, err: unknown): DoctorCheck {
  if (isUnavailable(err)) logOf(ctx).warn({ code: "database_unavailable", check: name, requestId: ctx.requestId }, err);
  else logOf(ctx).error({ code: "doctor_check_failed", check: name, requestId: ctx.requestId }, err);
  return { name, status: "fail", summary, next_action: "Check the server log." };
}

/** Runs one check; its failure is its own and leaves the other checks standing. */
async function standAlone<T extends DoctorCheck | null>(ctx: ServiceContext, name: string, summary: string, run: () => Promise<T>): Promise<T | DoctorCheck> {
  try {
    return await run();
  } catch (err) {
    return failedCheck(ctx, name, summary, err);
  }
}

/** The Database check, and whether the database answered at all (when it did not, nothing else can be checked). */
async function databaseCheck(ctx: ServiceContext): Promise<{ check: DoctorCheck; unreachable: boolean }> {
  const kind = ctx.store.driver === "pg" ? "PostgreSQL" : "Embedded PostgreSQL (PGlite)";
  try {
    const [row] = await ctx.store.query<{ version: string | null }>("select max(version) as version from schema_migrations");
    const sweep = await lastSweep(ctx.store);
    const swept =
      sweep === null
        ? "the expiry sweeper has not run yet"
        : `the expiry sweeper purged ${sweep.total_purged} expired artifact${sweep.total_purged === 1 ? "" : "s"} (${sweep.last_purged} on its last run, ${readableInstant(sweep.last_run_at)})`;
    return { check: { name: "Database", status: "ok", summary: `${kind} answers; schema ${row?.version ?? "unknown"}; ${swept}.` }, unreachable: false };
  } catch (err) {
    if (!isUnavailable(err))
      return { check: failedCheck(ctx, "Database", `${kind} answers, but its schema or sweeper state could not be read.`, err), unreachable: false };
    logOf(ctx).warn({ code: "database_unavailable", check: "Database", requestId: ctx.requestId }, err);
    const check: DoctorCheck = {
      name: "Database",
      status: "fail",
      summary: `${kind} is unreachable: down or not answering.`,
      next_action: "Check that the database is running and DATABASE_URL (or $CAIRN_HOME/pgdata) points at it.",
    };
    return { check, unreachable: true };
  }
}

/**
 * ok when nothing or only correct-by-design classes fired, or every fixable drop was dealt
 * with (resolved by a later accepted receipt of the same token, or dismissed); warn with the
 * fix while a recoverable one is still open (SPEC §24).
 */
function dropsCheck(counts: readonly DropCount[], surface: Surface, serverUrl: string): DoctorCheck {
  const totals = totalsByCategory(counts);
  const open = totalsByCategory(counts.map((c) => ({ ...c, n: c.open })));
  const line = rollupLine(totals, DROP_WINDOW_DAYS);
  const recoverable = DROP_CATEGORIES.filter((c) => (open[c] ?? 0) > 0 && classifyDrop(c, surface, null, serverUrl).recoverable);
  if (recoverable.length === 0) {
    const dealtWith = DROP_CATEGORIES.some((c) => (totals[c] ?? 0) > 0 && classifyDrop(c, surface, null, serverUrl).recoverable);
    const summary =
      Object.keys(totals).length === 0
        ? `${line}.`
        : dealtWith
          ? `${line} — each fixable one resolved or dismissed.`
          : `${line} — the gates working as designed.`;
    return { name: "Drops", status: "ok", summary };
  }
  // The most frequent recoverable class leads; ties go to the earlier gate.
  const top = [...recoverable].sort((a, b) => (open[b] ?? 0) - (open[a] ?? 0))[0] ?? recoverable[0];
  const { next_action } = classifyDrop(top ?? "invalid", surface, null, serverUrl);
  const words = SURFACE_WORDS[surface];
  return {
    name: "Drops",
    status: "warn",
    summary: `${line}. Receipts were refused that the submitter can fix.`,
    // The doctor page lists them itself, so it never sends the reader to "the Doctor page".
    next_action: `${top}: ${next_action}${words.listDrops ? ` List them with ${words.listDrops}.` : ""} ${words.dismissDrops}`,
  };
}

/** Present only while a policy that vetoed receipts in the window is still on: fixing the cause clears it. */
async function policyCheck(ctx: ServiceContext, counts: readonly DropCount[]): Promise<DoctorCheck | null> {
  const vetoes = counts.filter((c) => c.category === "policy-vetoed" && c.rule !== null && VETO_RULES[c.rule]);
  if (vetoes.length === 0) return null;
  const policies = await loadPolicies(ctx.store, [...new Set(vetoes.map((v) => v.owner))]);
  const live = vetoes.filter((v) => {
    const policy = policies.get(v.owner);
    return policy !== undefined && VETO_RULES[v.rule ?? ""]?.isOn(policy);
  });
  if (live.length === 0) return null;
  const summary = live
    .map((v) => `${v.rule} of ${v.owner} vetoed ${v.n} receipt${Number(v.n) === 1 ? "" : "s"} in ${DROP_WINDOW_DAYS} days and is still on`)
    .join("; ");
  const first = live[0] as DropCount;
  return { name: "Policy", status: "warn", summary: `${summary}.`, next_action: VETO_RULES[first.rule ?? ""]?.fix(first.owner) ?? "" };
}

/**
 * doctor: Database, Drops, (while it matters) Policy, Webhooks, Inbox and Notifications, over the owners
 * the caller acts for. Each check stands alone: one that cannot be made says so, is
 * logged once, and the others are still made. Only an unreachable database stops the
 * rest (they would all fail for that one reason).
 */
export async function runDoctor(ctx: ServiceContext): Promise<z.output<typeof Doctor>> {
  const database = await databaseCheck(ctx);
  if (database.unreachable) {
    return { checks: [database.check, { name: "Drops", status: "fail", summary: "Could not be checked: the database did not answer." }] };
  }
  const owners = visibleOwners(ctx.principal);
  const counts = await countDrops(ctx.store, owners, windowStart(ctx.now(), DROP_WINDOW_DAYS)).catch((err: unknown) => err as Error);
  const [drops, policy, webhooks, inbox, notifications] = await Promise.all([
    counts instanceof Error ? failedCheck(ctx, "Drops", "Could not read the drop receipts.", counts) : dropsCheck(counts, ctx.surface, ctx.config.publicUrl),
    counts instanceof Error
      ? ({ name: "Policy", status: "fail", summary: "Could not be checked: the drop receipts could not be read." } satisfies DoctorCheck)
      : standAlone(ctx, "Policy", "Could not read the owners' policies.", () => policyCheck(ctx, counts)),
    standAlone(ctx, "Webhooks", "Could not read the subscriptions.", () => webhooksCheck(ctx)),
    standAlone(ctx, "Inbox", "Could not read the inbox.", async () => {
      const [summary, asks] = await Promise.all([summarizeInbox(ctx.store, owners, ctx.now()), staleAsksOf(ctx.store, owners, ctx.now())]);
      return inboxCheck(summary, asks);
    }),
    standAlone(ctx, "Notifications", "Could not read your notification channels.", () => notificationsCheck(ctx)),
  ]);
  return { checks: [database.check, drops, ...(policy ? [policy] : []), webhooks, inbox, notifications] };
}
