import type { ServiceContext } from "../context.js";
import type { DoctorCheck } from "../doctor-check.js";
import { visibleOwners } from "../identity/authorize.js";

interface Row {
  id: string;
  owner: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | string | null;
}

/**
 * Doctor's Webhooks check over the subscriptions of the owners the caller acts for: fail
 * when one was disabled (events wait for it), warn while one is failing, ok otherwise.
 */
export async function webhooksCheck(ctx: ServiceContext): Promise<DoctorCheck> {
  const rows = await ctx.store.query<Row>(
    `select id, owner, url, enabled, disabled_reason, failing_since from subscriptions
      where owner in (select jsonb_array_elements_text($1::jsonb)) order by id`,
    [JSON.stringify(visibleOwners(ctx.principal))],
  );
  if (rows.length === 0) return { name: "Webhooks", status: "ok", summary: "No subscriptions." };
  const disabled = rows.filter((r) => !r.enabled);
  const failing = rows.filter((r) => r.enabled && r.failing_since !== null);
  const count = `${rows.length} subscription${rows.length === 1 ? "" : "s"}`;
  const first = disabled[0];
  if (first) {
    return {
      name: "Webhooks",
      status: "fail",
      summary: `${disabled.length} of ${count} disabled: ${first.id} (${first.url}) — ${first.disabled_reason ?? "disabled"}`,
      next_action: `Fix the receiver, then \`cairn subscription enable ${first.id}\` (POST /v1/subscriptions/${first.id}/enable); waiting events resume. See \`cairn deliveries ${first.id}\`.`,
    };
  }
  const failed = failing[0];
  if (failed) {
    return {
      name: "Webhooks",
      status: "warn",
      summary: `${failing.length} of ${count} failing: ${failed.id} (${failed.url}) since ${new Date(failed.failing_since as string).toISOString()}.`,
      next_action: `Check the receiver and the attempts: \`cairn deliveries ${failed.id}\`. Deliveries are retried for about a day; 5 days of failures disable it.`,
    };
  }
  return { name: "Webhooks", status: "ok", summary: `${count}, delivering.` };
}
