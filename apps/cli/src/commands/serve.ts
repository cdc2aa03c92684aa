import { resolveSettings } from "@cairn/core/local";
import { type RunningServer, startServer } from "../server.js";

/**
 * `cairn serve`: runs until SIGINT/SIGTERM, then drains requests and closes the store
 * cleanly. The handlers are installed before start-up, so a signal that arrives while
 * the embedded store is still opening waits for it and then shuts down cleanly, instead
 * of killing the process mid-write.
 */
export async function runServe(version: string): Promise<void> {
  const settings = resolveSettings();
  let server: RunningServer | undefined;
  let stopping: string | undefined;
  let signals = 0;

  const stop = (running: RunningServer, signal: string) => {
    console.log(`Received ${signal}; shutting down.`);
    running.close().then(
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
  const onSignal = (signal: string) => {
    signals++;
    if (signals > 1) {
      console.error("cairn: second signal, exiting now.");
      process.exit(1);
    }
    stopping = signal;
    if (server) stop(server, signal);
    else console.log(`Received ${signal} while starting; stopping once the store is open.`);
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  console.log(`Starting Cairn ${version} (${settings.databaseUrl ? "PostgreSQL" : `embedded store in ${settings.dataDir}`})…`);

  server = await startServer(settings, { info: (line) => console.log(line) }, version);
  if (stopping) stop(server, stopping);
}
