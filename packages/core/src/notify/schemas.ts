import { z } from "zod";
import { storableString } from "../text.js";

/** The kinds of channel a person can be reached on (SPEC §27). */
export const CHANNEL_KINDS = ["email", "slack", "ntfy"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_STATES = ["pending", "active", "disabled"] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

/** What a person is told about, each switchable (SPEC §27). */
export const TRIGGERS = ["assigned", "open_action", "overdue", "reminder", "digest", "decided"] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** A target is at most this long (an address, or a webhook or topic URL). */
export const MAX_TARGET = 2_000;
/** Channels one person may have. */
export const MAX_CHANNELS_PER_USER = 10;

const ChannelId = storableString()
  .regex(/^chn_[0-9a-z]{26}$/, "is not a channel id")
  .describe("Channel id (`chn_…`).");

export const ChannelKindSchema = z
  .enum(CHANNEL_KINDS)
  .describe("`email` (an address, confirmed through a mailed link), `slack` (an incoming-webhook URL) or `ntfy` (a topic URL on any ntfy server).");

export const ChannelCreateInput = z.strictObject({
  kind: ChannelKindSchema,
  target: storableString()
    .max(MAX_TARGET)
    .describe(
      "Where to reach you: an email address for `email`; for `slack` and `ntfy` an `https:` (or `http:`) URL — ntfy's may carry `user:password@` for its Authorization. A secret: shown masked after this call.",
    ),
});

export const Channel = z
  .object({
    id: z.string().describe("Channel id."),
    kind: ChannelKindSchema,
    target: z.string().describe("The target, masked: an address in full, a URL with its secret part hidden."),
    state: z
      .enum(CHANNEL_STATES)
      .describe("`pending` (an email address not yet confirmed: follow the mailed link), `active`, or `disabled` (see disabled_reason)."),
    disabled_reason: z.string().nullable().describe("Why it was disabled (5 days of failures, an address refused permanently), or null."),
    created_at: z.string().describe("ISO 8601 creation time."),
  })
  .meta({ id: "Channel", description: "A way to reach you: email, Slack or ntfy." });
export type Channel = z.infer<typeof Channel>;

export const ChannelList = z
  .object({ items: z.array(Channel).describe("Your channels, oldest first.") })
  .meta({ id: "ChannelList", description: "Your notification channels." });

export const ChannelIdInput = z.strictObject({ id: ChannelId });

export const ChannelTestQueued = z
  .object({
    channel_id: z.string().describe("The channel the test goes to."),
    notification_id: z.string().describe("The queued test notification; its attempt appears in the channel's deliveries."),
  })
  .meta({ id: "ChannelTestQueued", description: "A test message queued to one channel." });

export const ChannelAttempt = z
  .object({
    id: z.string().describe("Attempt id."),
    at: z.string().describe("ISO 8601 time of the attempt."),
    triggers: z.array(z.string()).describe("What the message was about: assigned, open_action, overdue, reminder, digest, decided, test or confirm."),
    notifications: z.number().int().describe("How many notifications the message carried (more than one when grouped)."),
    ok: z.boolean().describe("Whether the channel accepted it."),
    status_code: z.number().int().nullable().describe("The HTTP status (Slack, ntfy) or SMTP reply code (email), or null when nothing answered."),
    error: z.string().nullable().describe("Why it failed, or null."),
    latency_ms: z.number().int().describe("How long the attempt took."),
  })
  .meta({ id: "ChannelAttempt", description: "One message sent (or tried) on a channel." });

export const ChannelDeliveries = z
  .object({ items: z.array(ChannelAttempt).describe("The channel's attempts, newest first (the last 100).") })
  .meta({ id: "ChannelDeliveries", description: "A channel's log of attempts." });

export const TriggerSwitches = z
  .strictObject({
    assigned: z.boolean().describe("An open action is assigned to you."),
    open_action: z.boolean().describe("A new open action with nobody assigned in an owner you act for (you, or a team you are in)."),
    overdue: z.boolean().describe("An outcome you own or are assigned turned overdue."),
    reminder: z.boolean().describe("An open action assigned to you is still unacknowledged after remind_after (then again every remind_after, up to 3 times)."),
    digest: z.boolean().describe("A daily summary, at digest_hour UTC, of what waits on you; none when nothing waits. Off by default."),
    decided: z
      .boolean()
      .describe("Someone answered the ask of a receipt in an owner you act for (you, or a team you are in); not when you answered it. Off by default."),
  })
  .describe("Each trigger on or off.");

export const NotificationSettings = z
  .object({
    triggers: TriggerSwitches,
    remind_after: z.number().int().describe("Seconds before the first reminder and between reminders (at least 60; default 86,400)."),
    digest_hour: z.number().int().describe("The UTC hour (0–23) the digest is sent."),
  })
  .meta({ id: "NotificationSettings", description: "What you are told about, and when." });
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const MIN_REMIND_AFTER = 60;
export const MAX_REMIND_AFTER = 30 * 86_400;

export const NotificationSettingsInput = z.strictObject({
  triggers: TriggerSwitches.partial().optional().describe("Triggers to switch; those not named keep their setting."),
  remind_after: z
    .number()
    .int()
    .min(MIN_REMIND_AFTER)
    .max(MAX_REMIND_AFTER)
    .optional()
    .describe(`Seconds before the first reminder and between reminders: at least ${MIN_REMIND_AFTER}, at most ${MAX_REMIND_AFTER}.`),
  digest_hour: z.number().int().min(0).max(23).optional().describe("The UTC hour (0–23) the digest is sent."),
});

export const FeedKey = z
  .object({
    key: z.string().describe("The feed key. Shown once; the previous key stops working."),
    url: z.string().describe("The feed's address with the key, for a feed reader: /feeds/inbox.atom?key=…"),
  })
  .meta({ id: "FeedKey", description: "A new key for your Atom feed of what waits on you." });

export const NoInput = z.strictObject({});
