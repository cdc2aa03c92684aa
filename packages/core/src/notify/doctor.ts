import type { ServiceContext } from "../context.js";
import type { DoctorCheck } from "../doctor-check.js";
import type { ChannelKind } from "./schemas.js";
import { maskTarget } from "./targets.js";

interface Row {
  id: string;
  kind: ChannelKind;
  target: string;
  state: string;
  disabled_reason: string | null;
  failing_since: Date | string | null;
}

/**
 * Doctor's Notifications check over the caller's channels: warn when one was disabled
 * (with the reason), when email channels exist while the server has no mail configured,
 * or while one is failing; ok otherwise.
 */
export async function notificationsCheck(ctx: ServiceContext): Promise<DoctorCheck> {
  const rows = await ctx.store.query<Row>("select id, kind, target, state, disabled_reason, failing_since from channels where user_id = $1 order by id", [
    ctx.principal.user.id,
  ]);
  const name = "Notifications";
  if (rows.length === 0) return { name, status: "ok", summary: "No channels. Add one with `cairn notify add email|slack|ntfy …`." };
  const count = `${rows.length} channel${rows.length === 1 ? "" : "s"}`;
  const disabled = rows.find((r) => r.state === "disabled");
  if (disabled) {
    return {
      name,
      status: "warn",
      summary: `${disabled.kind} channel ${disabled.id} (${maskTarget(disabled.kind, disabled.target)}) is disabled: ${disabled.disabled_reason ?? "disabled"}`,
      next_action: `Fix the target, then \`cairn notify remove ${disabled.id}\` and add it again; see \`cairn notify deliveries ${disabled.id}\`.`,
    };
  }
  const email = rows.filter((r) => r.kind === "email");
  if (email.length > 0 && !ctx.config.mail) {
    return {
      name,
      status: "warn",
      summary: `${email.length} email channel${email.length === 1 ? "" : "s"}, but this server has no mail configured: nothing can be mailed.`,
      next_action: "The operator sets CAIRN_SMTP_URL (smtp://user:pass@host:587 or smtps://…) and CAIRN_MAIL_FROM, and restarts Cairn.",
    };
  }
  const failing = rows.find((r) => r.failing_since !== null);
  if (failing) {
    return {
      name,
      status: "warn",
      summary: `${failing.kind} channel ${failing.id} failing since ${new Date(failing.failing_since as string).toISOString()}.`,
      next_action: `See the attempts: \`cairn notify deliveries ${failing.id}\`. Messages are retried for about a day; 5 days of failures disable it.`,
    };
  }
  const pending = rows.filter((r) => r.state === "pending").length;
  return { name, status: "ok", summary: `${count}${pending ? `, ${pending} waiting for the address to be confirmed` : ""}, delivering.` };
}
