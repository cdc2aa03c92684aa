import { resolveSettings } from "@cairn/core/local";
import { startServer } from "../server.js";
import { stopOnSignals } from "./shutdown.js";

/**
 * `cairn serve`: runs until SIGINT/SIGTERM, then drains requests and closes the store
 * cleanly (shutdown.ts; a signal during start-up waits for the store to open).
 */
export async function runServe(version: string): Promise<void> {
  const settings = resolveSettings();
  const ready = stopOnSignals("shutting down");
  console.log(`Starting Cairn ${version} (${settings.databaseUrl ? "PostgreSQL" : `embedded store in ${settings.dataDir}`})…`);
  const server = await startServer(settings, { info: (line) => console.log(line) }, version);
  ready(() => server.close());
}
