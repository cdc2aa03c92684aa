import { foundation } from "./0001-foundation.js";
import { gates } from "./0002-gates.js";
import { runs } from "./0003-runs.js";
import { tokenRevocation } from "./0004-token-revocation.js";
import { events } from "./0005-events.js";
import { sessions } from "./0006-sessions.js";
import { humanLoop } from "./0007-human-loop.js";
import { lifecycle } from "./0008-lifecycle.js";
import { dropFaults } from "./0009-drop-faults.js";
import { receiptWrite } from "./0010-receipt-write.js";
import { searchStatistics } from "./0011-search-statistics.js";
import { receiptWriteEdges } from "./0012-receipt-write-edges.js";
import { webhookOperations } from "./0013-webhook-operations.js";
import { assignee } from "./0014-assignee.js";
import { traces } from "./0015-traces.js";
import { signinLinks } from "./0016-signin-links.js";
import { runTotals } from "./0017-run-totals.js";
import { signingSecrets } from "./0018-signing-secrets.js";
import { spanResources } from "./0019-span-resources.js";
import { runFiltersExpiry } from "./0020-run-filters-expiry.js";
import { dropsDismissed } from "./0021-drops-dismissed.js";
import { house } from "./0022-house.js";
import { oauth } from "./0024-oauth.js";
import { notifications } from "./0025-notifications.js";
import { actorIndexPredicate } from "./0026-actor-index-predicate.js";
import { fanoutQueue } from "./0027-fanout-queue.js";
import { searchText } from "./0028-search-text.js";
import { oauthBounds } from "./0029-oauth-bounds.js";
import { notifyRetention } from "./0030-notify-retention.js";
import { teamInvitations } from "./0032-team-invitations.js";
import { decisions } from "./0033-decisions.js";
import { comments } from "./0035-comments.js";
import { decidedTrigger } from "./0036-decided-trigger.js";
import type { Migration } from "./types.js";

export type { Migration } from "./types.js";

/**
 * The one ordered list of migrations, valid on PostgreSQL 15 (server) and 18 (PGlite).
 * Append only: an applied migration is never edited. One file per migration.
 */
export const MIGRATIONS: readonly Migration[] = [
  foundation,
  gates,
  runs,
  tokenRevocation,
  events,
  sessions,
  humanLoop,
  lifecycle,
  dropFaults,
  receiptWrite,
  searchStatistics,
  receiptWriteEdges,
  webhookOperations,
  assignee,
  traces,
  signinLinks,
  runTotals,
  signingSecrets,
  spanResources,
  runFiltersExpiry,
  dropsDismissed,
  house,
  oauth,
  notifications,
  actorIndexPredicate,
  fanoutQueue,
  searchText,
  oauthBounds,
  notifyRetention,
  teamInvitations,
  decisions,
  comments,
  decidedTrigger,
];
