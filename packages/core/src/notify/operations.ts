import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { channelDeliveries, createChannel, deleteChannel, listChannels, testChannel } from "./channels.js";
import { rotateFeedKey } from "./feed.js";
import {
  Channel,
  ChannelCreateInput,
  ChannelDeliveries,
  ChannelIdInput,
  ChannelList,
  ChannelTestQueued,
  FeedKey,
  NoInput,
  NotificationSettings,
  NotificationSettingsInput,
} from "./schemas.js";
import { getSettings, putSettings } from "./settings.js";

/** This area's group in the API documentation. */
export const NOTIFY_TAG = defineApiTag(
  "Notifications",
  "Reach the person who must act: your email, Slack and ntfy channels, what you are told about, and an Atom feed of what waits on you.",
);

/** A person's own channels and triggers: not offered to agents as tools (their tokens are refused anyway). */
const NOT_ON_MCP = { mcp: "where a person is reached is that person's decision, made with a human token" } as const;

/**
 * Notifications (SPEC §27): every verb acts on the caller's own channels and settings and
 * needs a human token (`notifications:write`; agents get 403 naming it), reads included —
 * channel targets are secrets.
 */
export const NOTIFY_OPERATIONS = {
  channel_create: defineOperation({
    notOn: NOT_ON_MCP,
    title: "Add a notification channel",
    description:
      "Add a way to reach you: `email` (an address; pending until you follow the link mailed to it; needs a server with mail configured; one address is mailed at most 3 confirmations an hour, then 429 rate_limited), `slack` (an incoming-webhook URL) or `ntfy` (a topic URL). The target is a secret: it is shown masked from now on. Human tokens only.",
    input: ChannelCreateInput,
    output: Channel,
    mutates: true,
    permission: "notifications:write",
    errors: ["rate_limited"],
    run: createChannel,
  }),
  channel_list: defineOperation({
    notOn: NOT_ON_MCP,
    title: "List your notification channels",
    description: "List your channels (targets masked) with their state: pending, active, or disabled and why. Human tokens only.",
    input: NoInput,
    output: ChannelList,
    mutates: false,
    permission: "notifications:write",
    run: listChannels,
  }),
  channel_delete: defineOperation({
    notOn: NOT_ON_MCP,
    title: "Remove a notification channel",
    description: "Remove one of your channels with its queued notifications and its log. Human tokens only.",
    input: ChannelIdInput,
    output: Channel,
    mutates: true,
    destructive: true,
    permission: "notifications:write",
    errors: ["not_found"],
    run: deleteChannel,
  }),
  channel_test: defineOperation({
    notOn: NOT_ON_MCP,
    title: "Send a test notification",
    description: "Queue a test message to one of your active channels now; its attempt appears in the channel's deliveries. Human tokens only.",
    input: ChannelIdInput,
    output: ChannelTestQueued,
    mutates: true,
    permission: "notifications:write",
    errors: ["not_found"],
    run: testChannel,
  }),
  channel_deliveries: defineOperation({
    notOn: NOT_ON_MCP,
    title: "List a channel's attempts",
    description:
      "The last 100 messages sent (or tried) on one of your channels, newest first: what they were about, how many notifications each carried, and the answer. Human tokens only.",
    input: ChannelIdInput,
    output: ChannelDeliveries,
    mutates: false,
    permission: "notifications:write",
    errors: ["not_found"],
    run: channelDeliveries,
  }),
  notifications_get: defineOperation({
    notOn: { ...NOT_ON_MCP, cli: "`cairn notify settings` without KEY VALUE pairs shows them (notifications_set with nothing to change)" },
    title: "Read your notification settings",
    description: "Which triggers are on (assigned, open_action, overdue, reminder, digest, decided), remind_after and digest_hour. Human tokens only.",
    input: NoInput,
    output: NotificationSettings,
    mutates: false,
    permission: "notifications:write",
    run: getSettings,
  }),
  notifications_set: defineOperation({
    notOn: NOT_ON_MCP,
    title: "Change your notification settings",
    description:
      "Switch triggers on or off and set remind_after (seconds, at least 60) and digest_hour (0–23 UTC); what you do not name keeps its value. Human tokens only.",
    input: NotificationSettingsInput,
    output: NotificationSettings,
    mutates: true,
    idempotent: true,
    permission: "notifications:write",
    run: putSettings,
  }),
  feed_key_rotate: defineOperation({
    notOn: NOT_ON_MCP,
    title: "Make a new feed key",
    description:
      "Make a new key for your Atom feed of what waits on you (GET /feeds/inbox.atom?key=…, for readers that cannot send headers). Shown once; the previous key stops working. Human tokens only.",
    input: NoInput,
    output: FeedKey,
    mutates: true,
    permission: "notifications:write",
    run: rotateFeedKey,
  }),
} as const;
