import { Webhook } from "standardwebhooks";
import { type PostResult, pinnedPost } from "./pinned-post.js";

const DELIVERY_TIMEOUT_MS = 15_000;

export type SendResult = PostResult;

export interface SendOptions {
  denyPrivate: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Standard Webhooks headers for this event: the id is the event id, the same on every
 * attempt. With several secrets (after a rotation) every one signs, newest first,
 * space-separated as the spec allows, so a receiver holding any one of them verifies.
 */
function signedHeaders(secrets: readonly string[], eventId: string, payload: string, at: Date): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(" "),
  };
}

/** One signed POST of the stored payload bytes to a subscriber, pinned to the address it resolved to (pinned-post.ts). */
export async function sendEvent(target: string, secrets: readonly string[], eventId: string, payload: string, options: SendOptions): Promise<SendResult> {
  const headers = {
    "content-type": "application/json",
    "user-agent": "Cairn-Webhooks/1",
    ...signedHeaders(secrets, eventId, payload, new Date()),
  };
  return pinnedPost(new URL(target), headers, Buffer.from(payload, "utf8"), {
    denyPrivate: options.denyPrivate,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    signal: options.signal,
  });
}
