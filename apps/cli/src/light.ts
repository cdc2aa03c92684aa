/**
 * What the CLI's quick paths use from core and the MCP surface: view models, limits, link
 * parsing and protocol constants, plain functions of plain data. From source these are
 * the packages themselves. The build replaces dist/light.js with a bundle of exactly
 * these (scripts/bundle.mjs), so `cairn read` prints an artifact, and `cairn mcp`
 * relays, without loading core's schemas (zod), storage or the MCP SDK.
 */
export {
  acknowledgementText,
  artifactFacts,
  artifactListLine,
  askLines,
  askViewOf,
  assignedText,
  CONFIRMATIONS,
  eventDeliveryTextOf,
  inboxEmptyText,
  LIMITS,
  outcomeItemLine,
  readableInstant,
  shareLinkOf,
  subscriptionStateOf,
  visibleText,
} from "@cairn/core";
export { ERROR_META_KEY, RPC_INTERNAL, RPC_UNAUTHENTICATED } from "@cairn/mcp";
