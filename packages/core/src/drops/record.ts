import type { Principal, ServiceContext } from "../context.js";
import { recordEvent } from "../events/outbox.js";
import { actsFor } from "../identity/authorize.js";
import { OwnerRef } from "../identity/names.js";
import { newId } from "../ids.js";
import { isPlainObject } from "../json.js";
import { LIMITS } from "../limits.js";
import { defaultLogger } from "../log.js";
import { processMetrics } from "../metrics/registry.js";
import { loadPolicy } from "../policy/store.js";
import type { Rejection } from "../receipt/validate.js";
import { deriveTitle } from "../receipt/validate.js";
import { containsSecret, type ScanSettings } from "../secrets/scan.js";
import type { Sql } from "../store/port.js";
import { canonicalText, isInvisible, isStorable } from "../text.js";
import { capFields, moreCount, moreEntry } from "../validation.js";
import { classifyDrop, type FieldFault, faultOf } from "./classification.js";
import { DROPS_HIGH_WATER, DROPS_KEPT, type DropReceipt, WITHHELD_TITLE } from "./schemas.js";

/** The owner the submission targeted when the caller may act for it; otherwise the caller's own user. */
function dropOwner(principal: Principal, raw: unknown): string {
  const requested = isPlainObject(raw) ? raw.owner : undefined;
  if (OwnerRef.safeParse(requested).success && actsFor(principal, requested as string)) return requested as string;
  return `user:${principal.user.name}`;
}

/** The title the receipt would have had, unless it comes from a failing field (that would persist a rejected value). */
function titleOf(raw: unknown, failing: ReadonlySet<string>): string | null {
  if (!isPlainObject(raw)) return null;
  if (typeof raw.title === "string") {
    const title = canonicalText(raw.title).replace(/\s+/g, " ");
    return failing.has("title") || !isStorable(title) || isInvisible(title) ? null : title.slice(0, LIMITS.title);
  }
  if (raw.title !== undefined || typeof raw.changed !== "string" || failing.has("changed")) return null;
  const changed = canonicalText(raw.changed);
  return !isStorable(changed) || isInvisible(changed) ? null : deriveTitle(changed);
}

function modelOf(raw: unknown, failing: ReadonlySet<string>): string | null {
  if (!isPlainObject(raw) || typeof raw.model !== "string" || failing.has("model")) return null;
  const model = canonicalText(raw.model);
  return !isStorable(model) || isInvisible(model) || model.length > LIMITS.model ? null : model;
}

/** A scanner failure withholds: a diagnostic must never be the place a secret leaks. */
const flagged = (text: string, settings: ScanSettings) => containsSecret(text, settings).catch(() => true);

export const WITHHELD_FIELD = "(withheld field name)";

/**
 * Every segment of every receipt field path has this shape (`evidence_note`, `0`,
 * `(input)`). A path with any other segment names a key the caller made up: it is their
 * text, so it is withheld rather than scanned (scanning 20k made-up keys cost seconds).
 * Known secret formats are longer, or carry capitals or dashes.
 */
const PLAIN_SEGMENT = /^(?:[a-z][a-z0-9_]{0,23}|\d{1,6}|\(input\))$/;

/** The failing paths a drop keeps: plain ones as they are, others withheld, at most LIMITS.issuesReported. */
function dropFields(issues: readonly { field: string }[]): string[] {
  const fields = new Set<string>();
  let folded = 0;
  for (const { field } of issues) {
    const more = moreCount(field);
    if (more > 0) folded += more;
    else fields.add(field.split(".").every((segment) => PLAIN_SEGMENT.test(segment)) ? field : WITHHELD_FIELD);
  }
  return capFields(folded > 0 ? [...fields, moreEntry(folded)] : [...fields]);
}

/** Builds the drop receipt for a decided rejection: classification, paths, and only text the scanner clears. */
async function buildDrop(ctx: ServiceContext, raw: unknown, rejection: Rejection): Promise<DropReceipt> {
  const now = ctx.now();
  const owner = dropOwner(ctx.principal, raw);
  const failing = new Set(rejection.issues.map((i) => i.field));
  // The owner's own scanner settings; if they cannot be read, scan with everything on.
  const settings: ScanSettings = await loadPolicy(ctx.store, owner).then(
    (p) => ({ entropy: p.entropy_detection }),
    () => ({ entropy: true }),
  );
  const title = titleOf(raw, failing);
  const withheld = title !== null && (await flagged(title, settings));
  const model = modelOf(raw, failing);
  const { token } = ctx.principal;
  return {
    id: (ctx.newId ?? newId)("drp", now),
    owner,
    ...classifyDrop(rejection.category, ctx.surface, faultOfRejection(rejection), ctx.config.publicUrl),
    fields: dropFields(rejection.issues),
    title: withheld ? WITHHELD_TITLE : title,
    title_withheld: withheld,
    surface: ctx.surface,
    actor: { id: token.id, name: token.name, kind: token.kind },
    model: model !== null && (await flagged(model, settings)) ? null : model,
    created_at: now.toISOString(),
    state: "open",
  };
}

/**
 * One insert per drop; the owner's advisory lock makes the count exact under concurrent
 * writers, so an owner never holds more than the high-water mark, and only an insert that
 * crosses it trims back to the newest DROPS_KEPT.
 */
/** The fault of an `invalid` refusal's first issue (stored, so listings can say which). */
const faultOfRejection = (rejection: Rejection): FieldFault | null => (rejection.category === "invalid" ? faultOf(rejection.issues[0]) : null);

/**
 * What else a drop's transaction does, under a lock taken before the drop's own: the
 * refusal's idempotency outcome (receipt/create.ts). `check` runs first; anything it
 * returns means the refusal was already answered, and nothing is written.
 */
export interface DropGuard<T> {
  lock: string;
  check(tx: Sql): Promise<T | undefined>;
  save(tx: Sql, drop: DropReceipt): Promise<void>;
}

export type RecordedDrop<T> = { drop: DropReceipt } | { answered: T };

async function writeDrop<T>(
  ctx: ServiceContext,
  drop: DropReceipt,
  rule: string | undefined,
  fault: FieldFault | null,
  guard?: DropGuard<T>,
): Promise<RecordedDrop<T>> {
  const locks = [...(guard ? [guard.lock] : []), `cairn.drops ${drop.owner}`];
  const recorded = await ctx.store.transaction(
    async (tx) => {
      if (guard) {
        const answered = await guard.check(tx);
        if (answered !== undefined) return { answered };
      }
      await tx.query(
        `insert into drops (id, owner, category, fields, title, title_withheld, surface, actor, model, rule, created_at, fault)
         values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::json, $9, $10, $11, $12)`,
        [
          drop.id,
          drop.owner,
          drop.category,
          JSON.stringify(drop.fields),
          drop.title,
          drop.title_withheld,
          drop.surface,
          JSON.stringify(drop.actor),
          drop.model,
          rule ?? null,
          drop.created_at,
          fault,
        ],
      );
      // Only a drop the submitter can fix is announced; the drop object holds paths, never values.
      if (drop.recoverable) await recordEvent(tx, { type: "receipt.dropped", owner: drop.owner, data: drop }, new Date(drop.created_at));
      const [count] = await tx.query<{ n: number }>("select count(*)::int as n from drops where owner = $1", [drop.owner]);
      if ((count?.n ?? 0) > DROPS_HIGH_WATER) {
        await tx.query("delete from drops where owner = $1 and id in (select id from drops where owner = $1 order by id desc offset $2)", [
          drop.owner,
          DROPS_KEPT,
        ]);
      }
      if (guard) await guard.save(tx, drop);
      return { drop };
    },
    { locks },
  );
  // Counted once committed: a refusal answered from its idempotency key is not a second drop.
  if ("drop" in recorded) processMetrics.drop(drop.category);
  return recorded;
}

/**
 * Persists the drop receipt of a rejection that has already been decided and returns it
 * for the error. Never throws: a failure to write is logged (without values) and
 * swallowed, so the caller's response is the same either way. With a guard, the drop and
 * the guard's work commit together, or the guard's answer is returned and no drop is
 * written.
 */
export async function recordDrop(ctx: ServiceContext, raw: unknown, rejection: Rejection): Promise<DropReceipt>;
export async function recordDrop<T>(ctx: ServiceContext, raw: unknown, rejection: Rejection, guard: DropGuard<T>): Promise<RecordedDrop<T>>;
export async function recordDrop<T>(ctx: ServiceContext, raw: unknown, rejection: Rejection, guard?: DropGuard<T>): Promise<DropReceipt | RecordedDrop<T>> {
  const drop = await buildDrop(ctx, raw, rejection);
  const done = (recorded: RecordedDrop<T>) => (guard ? recorded : (recorded as { drop: DropReceipt }).drop);
  try {
    return done(await writeDrop(ctx, drop, rejection.rule, faultOfRejection(rejection), guard));
  } catch (err) {
    logDropFailure(ctx, drop, err);
  }
  // Whatever the submission held, the refusal must stay listed: retry with nothing taken
  // from it, and without the guard's work (which may be what failed).
  const bare: DropReceipt = { ...drop, fields: drop.fields.map(() => WITHHELD_FIELD).slice(0, 1), title: null, title_withheld: false, model: null };
  try {
    await writeDrop(ctx, bare, rejection.rule, faultOfRejection(rejection));
    return done({ drop: bare });
  } catch (err) {
    logDropFailure(ctx, bare, err);
  }
  return done({ drop });
}

function logDropFailure(ctx: ServiceContext, drop: DropReceipt, err: unknown) {
  (ctx.logger ?? defaultLogger).error({ code: "drop_write_failed", drop: drop.id, category: drop.category, requestId: ctx.requestId }, err);
}
