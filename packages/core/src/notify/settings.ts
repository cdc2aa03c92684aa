import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { Sql } from "../store/port.js";
import type { NotificationSettings, NotificationSettingsInput } from "./schemas.js";

interface SettingsRow {
  assigned: boolean;
  open_action: boolean;
  overdue: boolean;
  reminder: boolean;
  digest: boolean;
  decided: boolean;
  remind_after: number;
  digest_hour: number;
}

/** A person's settings before they change any: every trigger on but the digest; a day between reminders; the digest at 09:00 UTC. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  triggers: { assigned: true, open_action: true, overdue: true, reminder: true, digest: false, decided: false },
  remind_after: 86_400,
  digest_hour: 9,
};

const fromRow = (r: SettingsRow): NotificationSettings => ({
  triggers: { assigned: r.assigned, open_action: r.open_action, overdue: r.overdue, reminder: r.reminder, digest: r.digest, decided: r.decided },
  remind_after: r.remind_after,
  digest_hour: r.digest_hour,
});

export async function readSettings(sql: Pick<Sql, "query">, userId: string): Promise<NotificationSettings> {
  const [row] = await sql.query<SettingsRow>(
    "select assigned, open_action, overdue, reminder, digest, decided, remind_after, digest_hour from notify_settings where user_id = $1",
    [userId],
  );
  return row ? fromRow(row) : DEFAULT_SETTINGS;
}

export const getSettings = (ctx: ServiceContext) => readSettings(ctx.store, ctx.principal.user.id);

/** Changes what is named; the rest keeps its value. */
export async function putSettings(ctx: ServiceContext, input: z.output<typeof NotificationSettingsInput>): Promise<NotificationSettings> {
  const userId = ctx.principal.user.id;
  return ctx.store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`notify_settings:${userId}`]);
    const current = await readSettings(tx, userId);
    const next: NotificationSettings = {
      triggers: { ...current.triggers, ...input.triggers },
      remind_after: input.remind_after ?? current.remind_after,
      digest_hour: input.digest_hour ?? current.digest_hour,
    };
    const t = next.triggers;
    await tx.query(
      `insert into notify_settings (user_id, assigned, open_action, overdue, reminder, digest, remind_after, digest_hour, updated_at, decided)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (user_id) do update set assigned = $2, open_action = $3, overdue = $4, reminder = $5, digest = $6,
         remind_after = $7, digest_hour = $8, updated_at = $9, decided = $10`,
      [userId, t.assigned, t.open_action, t.overdue, t.reminder, t.digest, next.remind_after, next.digest_hour, ctx.now().toISOString(), t.decided],
    );
    return next;
  });
}
