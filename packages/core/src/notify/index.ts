export { CONFIRM_TTL_MS, confirmChannel, NO_MAIL_REASON, peekConfirmation } from "./channels.js";
export { digestJob } from "./digest.js";
export { remindersJob } from "./fanout.js";
export { feedPath, inboxFeed } from "./feed.js";
export { NOTIFY_OPERATIONS, NOTIFY_TAG } from "./operations.js";
export type { Channel as NotificationChannel, NotificationSettings as NotificationSettingsView } from "./schemas.js";
export { CHANNEL_KINDS, type ChannelKind, TRIGGERS, type Trigger } from "./schemas.js";
export { DEFAULT_SETTINGS } from "./settings.js";
