import type { z } from "zod";
import type { ServiceContext, Surface } from "../context.js";
import { classifyDrop, DROP_CATEGORIES } from "../drops/classification.js";
import { SURFACE_WORDS } from "../drops/surface-words.js";
import { countDrops, type DropCount, windowStart } from "../drops/list.js";
import { DROP_WINDOW_DAYS } from "../drops/schemas.js";
import { webhooksCheck } from "../events/doctor.js";
import { visibleOwners } from "../identity/authorize.js";
import { inboxCheck, summarizeInbox } from "../inbox/summary.js";
import type { Policy } from "../policy/schemas.js";
import { lastSweep } from "../lifecycle/sweep.js";
import { loadPolicies } from "../policy/store.js";
import { rollupLine, totalsByCategory } from "./rollup.js";
import type { Doctor, DoctorCheck } from "./schemas.js";

/**
 * The policy rules that can veto a receipt, and how to tell that each is still on. Keyed
 * by the `rule` a policy-vetoed drop records; a new rule adds its row here.
 */
const VETO_RULES: Record<string, { isOn(p: Policy): boolean; fix(owner: string): string }> = {
  require_evidence: {
    isOn: (p) => p.require_evidence,
    fix: (owner) =>
      `Link evidence in those receipts, or turn the rule off: \`cairn policy set require_evidence false --owner ${owner}\` (PUT /v1/policy).`,
  },
};

async function databaseCheck(ctx: ServiceContext): Promise<DoctorCheck> {
  const kind = ctx.store.driver === "pg" ? "PostgreSQL" : "Embedded PostgreSQL (PGlite)";
  try {
    const [row] = await ctx.store.query<{ version: string | null }>("select max(version) as version from schema_migrations");
    const sweep = await lastSweep(ctx.store);
    const swept =
      sweep === null
        ? "the expiry sweeper has not run yet"
        : `the expiry sweeper purged ${sweep.total_purged} expired artifact${sweep.total_purged === 1 ? "" : "s"} (${sweep.last_purged} on its last run, ${sweep.last_run_at})`;
    return { name: "Database", status: "ok", summary: `${kind} answers; schema ${row?.version ?? "unknown"}; ${swept}.` };
  } catch {
    return {
      name: "Database",
      status: "fail",
      summary: `${kind} is unreachable: down or not answering.`,
      next_action: "Check that the database is running and DATABASE_URL (or $CAIRN_HOME/pgdata) points at it.",
    };
  }
}

/** ok when nothing or only correct-by-design classes fired; warn with the fix when a recoverable one did. */
function dropsCheck(counts: readonly DropCount[], surface: Surface, serverUrl: string): DoctorCheck {
  const totals = totalsByCategory(counts);
  const line = rollupLine(totals, DROP_WINDOW_DAYS);
  const recoverable = DROP_CATEGORIES.filter((c) => (totals[c] ?? 0) > 0 && classifyDrop(c, surface, null, serverUrl).recoverable);
  if (recoverable.length === 0) {
    const summary = Object.keys(totals).length === 0 ? `${line}.` : `${line} — the gates working as designed.`;
    return { name: "Drops", status: "ok", summary };
  }
  // The most frequent recoverable class leads; ties go to the earlier gate.
  const top = [...recoverable].sort((a, b) => (totals[b] ?? 0) - (totals[a] ?? 0))[0] ?? recoverable[0];
  const { next_action } = classifyDrop(top ?? "invalid", surface, null, serverUrl);
  return {
    name: "Drops",
    status: "warn",
    summary: `${line}. Receipts were refused that the submitter can fix.`,
    next_action: `${top}: ${next_action} List them with ${SURFACE_WORDS[surface].listDrops}.`,
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

/** doctor: Database, Drops, (while it matters) Policy, and Inbox, over the owners the caller acts for. */
export async function runDoctor(ctx: ServiceContext): Promise<z.output<typeof Doctor>> {
  const database = await databaseCheck(ctx);
  if (database.status === "fail") {
    return { checks: [database, { name: "Drops", status: "fail", summary: "Could not be checked: the database did not answer." }] };
  }
  try {
    const counts = await countDrops(ctx.store, visibleOwners(ctx.principal), windowStart(ctx.now(), DROP_WINDOW_DAYS));
    const policy = await policyCheck(ctx, counts);
    const webhooks = await webhooksCheck(ctx).catch(
      (): DoctorCheck => ({ name: "Webhooks", status: "fail", summary: "Could not read the subscriptions.", next_action: "Check the server log." }),
    );
    const inbox = await summarizeInbox(ctx.store, visibleOwners(ctx.principal), ctx.now()).then(
      inboxCheck,
      (): DoctorCheck => ({ name: "Inbox", status: "fail", summary: "Could not read the inbox.", next_action: "Check the server log." }),
    );
    return { checks: [database, dropsCheck(counts, ctx.surface, ctx.config.publicUrl), ...(policy ? [policy] : []), webhooks, inbox] };
  } catch {
    const summary = "Could not read the drop receipts.";
    return { checks: [database, { name: "Drops", status: "fail", summary, next_action: "Check the server log." }] };
  }
}
