import { ACCESS_TOKEN_TTL_SECONDS } from "./constants.js";

/**
 * What a person is told a connected app may do (SPEC §26, §18): the agent token's
 * permissions in words. The consent page and the settings page show these; the rule itself
 * is `tokenGrants` in identity/permissions.ts.
 */
export const CONSENT_WORDS = {
  may: ["Write receipts, artifacts and runs as you (marked as written by this app)", "Read what you can read"],
  mayNot: ["Acknowledge, retain or assign receipts", "Change policies, teams, webhooks or users", "Mint or revoke tokens, or sign in to this web app"],
  lifetime: `Its access lasts ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes at a time and renews until you disconnect the app in Settings.`,
} as const;
