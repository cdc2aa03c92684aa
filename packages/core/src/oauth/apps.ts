import type { Sql } from "../store/port.js";
import { redirectHostOf } from "./redirect-uri.js";

/** An app a person connected through OAuth: one grant, listed on the web's settings page. */
export interface ConnectedApp {
  /** The grant's token id: revoking it (`DELETE /v1/tokens/:id`) disconnects the app. */
  token_id: string;
  client_id: string;
  name: string;
  /** Where the client's redirect URIs point, for recognising it. */
  hosts: string[];
  created_at: string;
  last_used_at: string | null;
}

/** The person's connected apps whose grant is still live, newest first. */
export async function listConnectedApps(sql: Sql, userId: string): Promise<ConnectedApp[]> {
  const rows = await sql.query<{
    id: string;
    oauth_client_id: string;
    name: string;
    redirect_uris: string[] | null;
    created_at: Date;
    last_used_at: Date | null;
  }>(
    `select t.id, t.oauth_client_id, t.name, c.redirect_uris, t.created_at, t.last_used_at
       from tokens t left join oauth_clients c on c.id = t.oauth_client_id
      where t.user_id = $1 and t.oauth_client_id is not null and t.revoked_at is null
      order by t.id desc limit 100`,
    [userId],
  );
  return rows.map((r) => ({
    token_id: r.id,
    client_id: r.oauth_client_id,
    name: r.name,
    hosts: [...new Set((r.redirect_uris ?? []).map(redirectHostOf))],
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
  }));
}
