import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { readableInstant } from "../dates.js";
import { conflict, notFound, validationFailed } from "../errors.js";
import { actsFor, visibleOwners } from "../identity/authorize.js";
import { resolveOwner } from "../identity/owner.js";
import { newId } from "../ids.js";
import { LIMITS } from "../limits.js";
import type { Sql } from "../store/port.js";
import { STILL_FAILING_SINCE } from "./deliver.js";
import { EVENT_TYPES, type EventType } from "./schemas.js";
import type {
  CreatedSubscription,
  RotatedSecret,
  Subscription,
  SubscriptionCreateInput,
  SubscriptionIdInput,
  SubscriptionList,
  SubscriptionListInput,
} from "./subscription-schemas.js";
import { resolveTarget, TargetRefused, targetIssue } from "./targets.js";
import { ringOutbox } from "./wake.js";

interface SubscriptionRow {
  id: string;
  owner: string;
  url: string;
  events: EventType[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | string | null;
  created_by: string;
  created_at: Date | string;
}

const COLUMNS = "id, owner, url, events, enabled, disabled_reason, failing_since, created_by, created_at";

/** How long the previous secret signs beside the new one after a rotation (SPEC §19). */
const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** A team subscription whose creator left the team (SPEC §19); a member re-enables it as their own. */
const CREATOR_LEFT_TEAM = "creator_left_team";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const iso = (v: Date | string) => new Date(v).toISOString();

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    url: row.url,
    events: row.events ?? [...EVENT_TYPES],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: iso(row.created_at),
    owner: row.owner,
    failing_since: row.failing_since === null ? null : iso(row.failing_since),
    created_by: row.created_by,
  };
}

/** A subscription the caller may see (its owner user, or a member of its owner team), or not_found. */
export async function findSubscription(ctx: ServiceContext, id: string): Promise<SubscriptionRow> {
  const [row] = await ctx.store.query<SubscriptionRow>(`select ${COLUMNS} from subscriptions where id = $1`, [id]);
  if (!row || !actsFor(ctx.principal, row.owner)) throw notFound("subscription");
  return row;
}

/**
 * The first step of every transaction that changes a subscription or its deliveries (ADR
 * 0041): the subscription's row, locked FOR NO KEY UPDATE, before any of its deliveries.
 * Every such path takes the same two kinds of lock in the same order (subscription, then
 * deliveries), so they queue behind one another instead of deadlocking; the worker's
 * claim skips a subscription locked this way. Read inside the transaction: a subscription
 * deleted meanwhile (or never visible to the caller) is a 404, never a stale row.
 */
export async function lockSubscription(tx: Sql, ctx: ServiceContext, id: string): Promise<SubscriptionRow> {
  const [row] = await tx.query<SubscriptionRow>(`select ${COLUMNS} from subscriptions where id = $1 for no key update`, [id]);
  if (!row || !actsFor(ctx.principal, row.owner)) throw notFound("subscription");
  return row;
}

/** With the deny switch on, a target that already resolves to a private address is refused at create too. */
async function checkTarget(ctx: ServiceContext, url: string): Promise<void> {
  const issue = targetIssue(url);
  if (issue) throw validationFailed([issue]);
  if (!ctx.config.webhookDenyPrivate) return;
  try {
    await resolveTarget(new URL(url).hostname, true);
  } catch (err) {
    // A name that does not resolve yet is checked again at every delivery.
    if (err instanceof TargetRefused && !err.message.endsWith("did not resolve")) {
      throw validationFailed([{ field: "url", reason: "resolves to a loopback, private or link-local address, which this server refuses" }]);
    }
  }
}

export async function createSubscription(ctx: ServiceContext, input: z.output<typeof SubscriptionCreateInput>): Promise<z.output<typeof CreatedSubscription>> {
  const owner = resolveOwner(ctx.principal, input.owner, "subscribe");
  await checkTarget(ctx, input.url);
  const events = input.events ? [...new Set(input.events)] : null;
  // Stored as the parser writes it: percent-encoded ASCII, so no stray character reaches the database.
  const url = new URL(input.url).href;
  const secret = newSecret();
  const now = ctx.now();
  const row = await ctx.store.transaction(async (tx) => {
    // The owner's count and the insert under one lock, so two creates at once cannot both be the 25th.
    await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`subscriptions:${owner}`]);
    const [count] = await tx.query<{ n: number }>("select count(*)::int as n from subscriptions where owner = $1", [owner]);
    if ((count?.n ?? 0) >= LIMITS.subscriptionsPerOwner) {
      throw validationFailed([
        {
          field: "owner",
          reason: `${owner} already has ${LIMITS.subscriptionsPerOwner} subscriptions, the most one owner may have; delete one first`,
          limit: LIMITS.subscriptionsPerOwner,
        },
      ]);
    }
    const [inserted] = await tx.query<SubscriptionRow>(
      `insert into subscriptions (id, owner, url, events, secret, created_by, created_at)
       values ($1, $2, $3, $4::jsonb, $5, $6, $7) returning ${COLUMNS}`,
      [newId("sub", now), owner, url, events === null ? null : JSON.stringify(events), secret, ctx.principal.user.name, now.toISOString()],
    );
    return inserted;
  });
  if (!row) throw new Error("insert returned no row");
  const created = toSubscription(row);
  return { id: created.id, url: created.url, events: created.events, secret };
}

const encodeCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^sub_[0-9a-z]{26}$/.test(id)) throw validationFailed([{ field: "cursor", reason: "is not a cursor this server issued" }]);
  return id;
}

export async function listSubscriptions(ctx: ServiceContext, input: z.output<typeof SubscriptionListInput>): Promise<z.output<typeof SubscriptionList>> {
  const owners = input.owner ? [resolveOwner(ctx.principal, input.owner, "list subscriptions")] : visibleOwners(ctx.principal);
  const limit = input.limit ?? LIMITS.pageDefault;
  const rows = await ctx.store.query<SubscriptionRow>(
    `select ${COLUMNS} from subscriptions
      where owner in (select jsonb_array_elements_text($1::jsonb)) and ($2::text is null or id < $2::text)
      order by id desc limit $3`,
    [JSON.stringify(owners), input.cursor ? decodeCursor(input.cursor) : null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toSubscription), next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

export async function readSubscription(ctx: ServiceContext, input: z.output<typeof SubscriptionIdInput>): Promise<Subscription> {
  return toSubscription(await findSubscription(ctx, input.id));
}

/** Deletes the subscription with its queue and attempts; answers with what it was. */
export async function deleteSubscription(ctx: ServiceContext, input: z.output<typeof SubscriptionIdInput>): Promise<Subscription> {
  const row = await findSubscription(ctx, input.id);
  await ctx.store.query("delete from subscriptions where id = $1", [row.id]);
  return toSubscription(row);
}

/**
 * Re-enables a disabled subscription; its waiting deliveries resume at once. A team
 * subscription whose creator is no longer a member becomes the caller's (SPEC §19).
 */
export async function enableSubscription(ctx: ServiceContext, input: z.output<typeof SubscriptionIdInput>): Promise<Subscription> {
  const now = ctx.now().toISOString();
  const row = await ctx.store.transaction(async (tx) => {
    const found = await lockSubscription(tx, ctx, input.id);
    const [updated] = await tx.query<SubscriptionRow>(
      `update subscriptions set enabled = true, disabled_reason = null, disabled_at = null,
              failing_since = ${STILL_FAILING_SINCE}, failing_streak_since = null,
              created_by = case
                when owner like 'team:%' and not exists (
                  select 1 from team_members m join teams t on t.id = m.team_id join users u on u.id = m.user_id
                   where 'team:' || t.name = subscriptions.owner and u.name = subscriptions.created_by)
                then $2 else created_by end
        where id = $1 returning ${COLUMNS}`,
      [found.id, ctx.principal.user.name],
    );
    // Waiting deliveries are due now; one in flight (leased) is left to its worker, never sent twice.
    await tx.query("update deliveries set next_at = $2 where subscription_id = $1 and state = 'pending' and (leased_until is null or leased_until <= $2)", [
      found.id,
      now,
    ]);
    tx.afterCommit(ringOutbox);
    return updated ?? found;
  });
  return toSubscription(row);
}

interface ReplacedSecret {
  secret: string;
  replaced_at: string;
  until: string;
}

/** Secrets that sign one delivery at most (SPEC §24): the current one and two replaced in the last 24 h. */
export const MAX_SIGNING_SECRETS = 3;

/**
 * subscription_rotate_secret: a new secret, shown once. Every secret replaced in the last
 * 24 h keeps signing until 24 h after it was replaced (SPEC §24), so a receiver still
 * configured with any of them keeps verifying; a rotation that would make a fourth
 * signature is refused (409) with the time the oldest stops. In one transaction under the
 * subscription's row lock (ADR 0041): two rotations at once are serialised, and a
 * subscription deleted meanwhile is a 404.
 */
export async function rotateSecret(ctx: ServiceContext, input: z.output<typeof SubscriptionIdInput>): Promise<z.output<typeof RotatedSecret>> {
  const now = ctx.now();
  const secret = newSecret();
  const until = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  return ctx.store.transaction(async (tx) => {
    const found = await lockSubscription(tx, ctx, input.id);
    const [stored] = await tx.query<{ secret: string; replaced_secrets: ReplacedSecret[] }>(
      "select secret, replaced_secrets from subscriptions where id = $1",
      [found.id],
    );
    const signing = (stored?.replaced_secrets ?? []).filter((r) => Date.parse(r.until) > now.getTime());
    if (signing.length + 2 > MAX_SIGNING_SECRETS) {
      const oldest = signing.reduce((a, b) => (Date.parse(a.until) <= Date.parse(b.until) ? a : b));
      throw conflict(
        `${found.id} already signs with ${MAX_SIGNING_SECRETS} secrets, the most one delivery carries; ` +
          `the oldest replaced secret stops signing at ${oldest.until} (${readableInstant(oldest.until)}): rotate again after that.`,
      );
    }
    const replaced: ReplacedSecret[] = [{ secret: stored?.secret ?? "", replaced_at: now.toISOString(), until }, ...signing];
    await tx.query("update subscriptions set secret = $2, replaced_secrets = $3::jsonb where id = $1", [found.id, secret, JSON.stringify(replaced)]);
    return {
      id: found.id,
      secret,
      previous_secret_expires_at: until,
      signing: [
        { secret: "new" as const, replaced_at: null, signs_until: null },
        ...replaced.map((r) => ({ secret: "replaced" as const, replaced_at: r.replaced_at, signs_until: r.until })),
      ],
    };
  });
}

/**
 * When a user leaves a team, the team's subscriptions they created stop (SPEC §19): an
 * ex-member's URL must not keep receiving the team's events with their share links.
 * Called in the removal's transaction.
 */
export async function disableSubscriptionsOfLeaver(tx: Sql, teamOwner: string, userName: string, now: Date): Promise<void> {
  await tx.query(
    `update subscriptions set enabled = false, disabled_reason = $3, disabled_at = $4
      where owner = $1 and created_by = $2 and enabled`,
    [teamOwner, userName, CREATOR_LEFT_TEAM, now.toISOString()],
  );
}
