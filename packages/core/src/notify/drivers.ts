import { type MessageFits, SLACK_SECTION_CHARS, slackSectionText } from "./render.js";
import type { ChannelKind } from "./schemas.js";
import { ntfyRequest } from "./transports.js";

/** ntfy.sh keeps a message body up to 4,096 bytes as text; a larger one becomes an attachment. */
export const NTFY_BODY_BYTES = 4_096;

/**
 * After a channel had its three messages within a minute, a backlog that one grouped
 * message cannot show drains at one message per this many milliseconds (README,
 * "Notifications"): Slack accepts about one message a second per incoming webhook;
 * ntfy.sh refills a visitor's request budget one every 5 s; mail is given the same pace.
 */
export const DRAIN_EVERY_MS: Record<ChannelKind, number> = { email: 5_000, slack: 1_000, ntfy: 5_000 };

/** Whether one message fits the channel whole; a grouped message shows as many items as do. */
export const MESSAGE_FITS: Record<ChannelKind, MessageFits> = {
  email: () => true,
  slack: (m) => slackSectionText(m).length <= SLACK_SECTION_CHARS,
  ntfy: (m) => Buffer.byteLength(ntfyRequest(m).body, "utf8") <= NTFY_BODY_BYTES,
};
