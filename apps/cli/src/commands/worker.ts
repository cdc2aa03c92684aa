import { openCairn, scheduleFrom } from "@cairn/core";
import { resolveSettings } from "@cairn/core/local";
import { stopOnSignals } from "./shutdown.js";

/**
 * `cairn worker`: webhook delivery and scheduled jobs without the HTTP server, for scaling
 * out on PostgreSQL. Any number of workers and servers share the work through the
 * database. The embedded store belongs to the one `cairn serve` process, which runs the
 * worker itself, so this command needs DATABASE_URL.
 */
export async function runWorker(version: string): Promise<void> {
  const settings = resolveSettings();
  if (!settings.databaseUrl) {
    throw new Error("cairn worker needs DATABASE_URL (PostgreSQL). On the embedded store, `cairn serve` delivers webhooks itself.");
  }
  const ready = stopOnSignals("finishing in-flight deliveries");
  console.log(`Starting Cairn worker ${version} (PostgreSQL)…`);
  const cairn = await openCairn({
    databaseUrl: settings.databaseUrl,
    publicUrl: settings.publicUrl,
    webhookDenyPrivate: settings.webhookDenyPrivate,
    ...(settings.mail && { mail: settings.mail }),
  });
  const worker = cairn.startWorker({
    denyPrivate: settings.webhookDenyPrivate,
    schedule: scheduleFrom(settings),
  });
  console.log("Worker running: webhook delivery, notifications and scheduled jobs.");
  ready(() => worker.stop().then(() => cairn.close()));
  await new Promise<never>(() => {});
}
