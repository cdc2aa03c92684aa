import { rateLimited } from "../errors.js";
import { hashToken } from "../ids.js";
import type { Sql } from "../store/port.js";

/** Confirmation mails one address may be sent within an hour, whoever asks (SPEC §37). */
export const CONFIRM_MAILS_PER_HOUR = 3;
const HOUR_MS = 3_600_000;

/**
 * Counts a confirmation mail to `address` in the caller's transaction, or refuses it with a
 * 429 naming the limit when the address had its mails this hour. Keyed by the SHA-256 of
 * the lower-cased address (no address is kept after its channel is removed), so deleting
 * and re-adding a channel, or asking from another account, does not reset it.
 */
export async function countConfirmMail(tx: Sql, address: string, now: Date): Promise<void> {
  const key = hashToken(address.toLowerCase());
  await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`confirm_mails:${key}`]);
  const [row] = await tx.query<{ n: number; oldest: Date | string | null }>(
    "select count(*)::int as n, min(sent_at) as oldest from confirm_mails where address_hash = $1 and sent_at > $2",
    [key, new Date(now.getTime() - HOUR_MS).toISOString()],
  );
  if ((row?.n ?? 0) >= CONFIRM_MAILS_PER_HOUR) {
    const frees = Math.max(1, Math.ceil((new Date(row?.oldest ?? now).getTime() + HOUR_MS - now.getTime()) / 60_000));
    throw rateLimited({
      field: "target",
      reason: `has been sent ${CONFIRM_MAILS_PER_HOUR} confirmation mails in the last hour, the most one address gets; try again in ${frees} minutes`,
      limit: CONFIRM_MAILS_PER_HOUR,
    });
  }
  await tx.query("insert into confirm_mails (address_hash, sent_at) values ($1, $2)", [key, now.toISOString()]);
}
