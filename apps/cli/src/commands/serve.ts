import { resolveSettings } from "@cairn/core/local";
import { startServer } from "../server.js";

/** `cairn serve`: runs until SIGINT/SIGTERM, then drains requests and closes the store cleanly. */
export async function runServe(version: string): Promise<void> {
  const settings = resolveSettings();
  const server = await startServer(settings, { info: (line) => console.log(line) }, version);
  let signals = 0;
  const shutdown = (signal: string) => {
    signals++;
    if (signals > 1) {
      console.error("cairn: second signal, exiting now.");
      process.exit(1);
    }
    console.log(`Received ${signal}; shutting down.`);
    server.close().then(
      () => {
        console.log("Stopped.");
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`cairn: shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
