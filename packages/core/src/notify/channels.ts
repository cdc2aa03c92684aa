import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { notFound, validationFailed } from "../errors.js";
import { hashToken, newId } from "../ids.js";
import type { Sql, Store } from "../store/port.js";
import { countConfirmMail } from "./confirm-limit.js";
import { queueNotification } from "./queue.js";
import {
  type Channel,
  type ChannelCreateInput,
  type ChannelDeliveries,
  type ChannelIdInput,
  type ChannelKind,
  type ChannelState,
  type ChannelTestQueued,
  MAX_CHANNELS_PER_USER,
} from "./schemas.js";
import { channelTargetIssue, maskTarget, normalTarget } from "./targets.js";

export interface ChannelRow {
  id: string;
  user_id: string;
  kind: ChannelKind;
  target: string;
  state: ChannelState;
  disabled_reason: string | null;
  created_at: Date | string;
}

const COLUMNS = "id, user_id, kind, target, state, disabled_reason, created_at";
const iso = (v: Date | string) => new Date(v).toISOString();

/** How long a confirmation link mailed to a new address works. */
export const CONFIRM_TTL_MS = 7 * 86_400_000;

/** The words of a server without mail (the 422 on an email channel, doctor, the settings page). */
export const NO_MAIL_REASON = "cannot be an email address: this server has no mail configured (the operator sets CAIRN_SMTP_URL and CAIRN_MAIL_FROM)";

export function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    kind: row.kind,
    target: maskTarget(row.kind, row.target),
    state: row.state,
    disabled_reason: row.disabled_reason,
    created_at: iso(row.created_at),
  };
}

/** The path a confirmation link opens (a GET shows a button; only the POST confirms). */
export const confirmPath = (code: string) => `/notifications/confirm/${encodeURIComponent(code)}`;

/**
 * Adds a channel for the caller. Email starts `pending` and a confirmation message is
 * queued to it in the same transaction; Slack and ntfy start `active`.
 */
export async function createChannel(ctx: ServiceContext, input: z.output<typeof ChannelCreateInput>): Promise<Channel> {
  const target = input.target.trim();
  const issue = channelTargetIssue(input.kind, target);
  if (issue) throw validationFailed([issue]);
  if (input.kind === "email" && !ctx.config.mail) throw validationFailed([{ field: "target", reason: NO_MAIL_REASON }]);
  const stored = normalTarget(input.kind, target);
  const now = ctx.now();
  const user = ctx.principal.user;
  const row = await ctx.store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`channels:${user.id}`]);
    const [count] = await tx.query<{ n: number }>("select count(*)::int as n from channels where user_id = $1", [user.id]);
    if ((count?.n ?? 0) >= MAX_CHANNELS_PER_USER) {
      throw validationFailed([
        {
          field: "kind",
          reason: `you already have ${MAX_CHANNELS_PER_USER} channels, the most one person may have; remove one first`,
          limit: MAX_CHANNELS_PER_USER,
        },
      ]);
    }
    const code = input.kind === "email" ? randomBytes(32).toString("base64url") : null;
    const [inserted] = await tx.query<ChannelRow>(
      `insert into channels (id, user_id, kind, target, state, confirm_hash, confirm_expires_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
      [
        newId("chn", now),
        user.id,
        input.kind,
        stored,
        code ? "pending" : "active",
        code ? hashToken(code) : null,
        code ? new Date(now.getTime() + CONFIRM_TTL_MS).toISOString() : null,
        now.toISOString(),
      ],
    );
    if (!inserted) throw new Error("insert returned no row");
    if (code) {
      await countConfirmMail(tx, stored, now);
      await queueNotification(tx, inserted.id, {
        key: "confirm",
        trigger: "confirm",
        content: { kind: "confirm", user: user.name, link: `${ctx.config.publicUrl}${confirmPath(code)}` },
        now,
      });
    }
    return inserted;
  });
  return toChannel(row);
}

export async function listChannels(ctx: ServiceContext): Promise<{ items: Channel[] }> {
  const rows = await ctx.store.query<ChannelRow>(`select ${COLUMNS} from channels where user_id = $1 order by id`, [ctx.principal.user.id]);
  return { items: rows.map(toChannel) };
}

async function ownChannel(sql: Sql, ctx: ServiceContext, id: string): Promise<ChannelRow> {
  const [row] = await sql.query<ChannelRow>(`select ${COLUMNS} from channels where id = $1 and user_id = $2`, [id, ctx.principal.user.id]);
  if (!row) throw notFound("channel of yours");
  return row;
}

export async function deleteChannel(ctx: ServiceContext, input: z.output<typeof ChannelIdInput>): Promise<Channel> {
  const row = await ownChannel(ctx.store, ctx, input.id);
  await ctx.store.query("delete from channels where id = $1 and user_id = $2", [row.id, ctx.principal.user.id]);
  return toChannel(row);
}

/** Queues a test message to one channel now (an email channel must be confirmed first). */
export async function testChannel(ctx: ServiceContext, input: z.output<typeof ChannelIdInput>): Promise<z.output<typeof ChannelTestQueued>> {
  const row = await ownChannel(ctx.store, ctx, input.id);
  if (row.state !== "active") {
    throw validationFailed([
      {
        field: "id",
        reason:
          row.state === "pending"
            ? "is an email channel not confirmed yet: follow the link mailed to the address first"
            : `is disabled (${row.disabled_reason ?? "disabled"}); remove it and add it again`,
      },
    ]);
  }
  const now = ctx.now();
  const id = await ctx.store.transaction((tx) =>
    queueNotification(tx, row.id, {
      key: `test:${newId("tst", now)}`,
      trigger: "test",
      content: { kind: "test", user: ctx.principal.user.name, link: `${ctx.config.publicUrl}/settings/notifications` },
      now,
    }),
  );
  return { channel_id: row.id, notification_id: id ?? "" };
}

interface AttemptRow {
  id: string;
  at: Date | string;
  triggers: string[];
  notifications: number;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
}

export async function channelDeliveries(ctx: ServiceContext, input: z.output<typeof ChannelIdInput>): Promise<z.output<typeof ChannelDeliveries>> {
  const row = await ownChannel(ctx.store, ctx, input.id);
  const rows = await ctx.store.query<AttemptRow>(
    `select id, at, triggers, notifications, ok, status_code, error, latency_ms from notification_attempts
      where channel_id = $1 order by at desc, id desc limit 100`,
    [row.id],
  );
  return { items: rows.map((r) => ({ ...r, at: iso(r.at) })) };
}

export type ConfirmState = "confirmed" | "already" | "unknown";

/** What a confirmation code names, for the GET page (which never confirms): the address, or null. */
export async function peekConfirmation(store: Pick<Store, "query">, code: string, now: Date): Promise<{ target: string; state: ChannelState } | null> {
  const [row] = await store.query<{ target: string; state: ChannelState }>(
    "select target, state from channels where confirm_hash = $1 and confirm_expires_at > $2",
    [hashToken(code), now.toISOString()],
  );
  return row ?? null;
}

/** Confirms the address a code was mailed to (the POST of the link's page): the channel becomes active. */
export async function confirmChannel(store: Pick<Store, "query">, code: string, now: Date): Promise<{ state: ConfirmState; target?: string }> {
  const [row] = await store.query<{ target: string; was: ChannelState }>(
    `update channels c set state = case when c.state = 'pending' then 'active' else c.state end
      from (select id, state as was from channels where confirm_hash = $1 and confirm_expires_at > $2) old
     where c.id = old.id returning c.target, old.was`,
    [hashToken(code), now.toISOString()],
  );
  if (!row) return { state: "unknown" };
  return { state: row.was === "pending" ? "confirmed" : "already", target: row.target };
}
