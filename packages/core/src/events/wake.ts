import { EventEmitter } from "node:events";

/**
 * In-process wake-up for delivery workers: a committed event rings it so the first
 * attempt goes out right after commit. Other processes find the row by polling.
 */
const bell = new EventEmitter();
bell.setMaxListeners(0);

export function ringOutbox(): void {
  bell.emit("ring");
}

export function onOutboxRing(listener: () => void): () => void {
  bell.on("ring", listener);
  return () => bell.off("ring", listener);
}
