import { EventEmitter } from "node:events";

/** In-process wake-up for the notifier: a queued notification rings it after commit (other processes poll). */
const bell = new EventEmitter();
bell.setMaxListeners(0);

export const ringNotifier = (): void => {
  bell.emit("ring");
};

export function onNotifierRing(listener: () => void): () => void {
  bell.on("ring", listener);
  return () => bell.off("ring", listener);
}
