import { needsActionSql, unexpiredSql } from "../inbox/rules.js";
import type { Sql } from "../store/port.js";

export interface WaitingItem {
  id: string;
  title: string;
  human_action: string;
  owner: string;
  assignee: string | null;
  created_at: Date | string;
}

/**
 * What waits on a person (the feed, the digest): open actions — unacknowledged, not
 * expired — of the owners they act for (themselves and their teams) that are assigned to
 * them or to nobody, newest first.
 */
export async function waitingOn(sql: Pick<Sql, "query">, userId: string, now: Date, limit: number): Promise<{ items: WaitingItem[]; total: number }> {
  const rows = await sql.query<WaitingItem & { total: number }>(
    `with me as (select name from users where id = $1),
     owners as (select 'user:' || name as owner from me union select 'team:' || t.name from team_members m join teams t on t.id = m.team_id where m.user_id = $1)
     select a.id, a.title, a.metadata->>'human_action' as human_action, a.owner, a.assignee, a.created_at, count(*) over ()::int as total
       from artifacts a
      where a.owner in (select owner from owners) and ${needsActionSql("a")} and ${unexpiredSql("a", "$2")}
        and not exists (select 1 from acknowledgements k where k.artifact_id = a.id)
        and (a.assignee is null or a.assignee = (select name from me))
      order by a.id desc limit $3`,
    [userId, now.toISOString(), limit],
  );
  return { items: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
}
