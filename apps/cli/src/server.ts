import { mkdir, open, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Cairn, collectProcessMetrics, logFormatFrom, metricsSettingsFrom, openCairn, parseTrustProxy, scheduleFrom, type Worker } from "@cairn/core";
import { readCredentials, replaceCredentials, type Settings, writeCredentials } from "@cairn/core/local";
import { createMcpHttpHandler } from "@cairn/mcp";
import { createRestApp } from "@cairn/rest";
import { createWebApp } from "@cairn/web";
import { serve } from "@hono/node-server";
import { type MetricsListener, startMetricsListener } from "./metrics-listener.js";

export interface RunningServer {
  url: string;
  cairn: Cairn;
  /** Stops accepting connections, lets in-flight requests finish, then closes the store. */
  close(): Promise<void>;
}

export interface ServerLog {
  info(line: string): void;
}

/**
 * The embedded store is a single-writer Postgres in this process: a second `cairn serve`
 * on the same directory would corrupt it, so the directory is claimed with a pid file.
 */
async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lock = join(dataDir, "..", "pgdata.pid");
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number((await readFile(lock, "utf8").catch(() => "")).trim());
      if (pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(`another cairn serve (pid ${pid}) is using ${dataDir}; stop it first.`);
      }
      await rm(lock, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not claim ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What a test may inject into a real server: the clock its core and worker read (reminders, overdue outcomes). */
export interface ServerOptions {
  now?: () => Date;
}

export async function startServer(settings: Settings, log: ServerLog, version: string, options: ServerOptions = {}): Promise<RunningServer> {
  const metricsSettings = metricsSettingsFrom(process.env);
  const logFormat = logFormatFrom(process.env);
  const trustProxy = parseTrustProxy(process.env.CAIRN_TRUST_PROXY);
  const release = settings.databaseUrl ? async () => {} : await claimDataDir(settings.dataDir);
  // Bind first so share links carry the real port (PORT=0 picks a free one); until the
  // store is open, requests get a 503.
  // env carries node-server's { incoming, outgoing }: REST reads bodies from `incoming` directly (apps/rest/src/body.ts).
  let handler: (req: Request, env: unknown) => Response | Promise<Response> = () =>
    Response.json({ error: { code: "unavailable", message: "Cairn is starting." } }, { status: 503, headers: { "Retry-After": "1" } });
  const server = serve({
    fetch: (req, env) => handler(req, env),
    port: settings.port,
    hostname: settings.host,
    // A request (headers and body) must arrive whole within the bound, or Node answers 408 and
    // closes the connection; it checks open connections at least once a second (default 30 s).
    serverOptions: {
      requestTimeout: settings.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, settings.requestTimeoutMs),
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  } catch (err) {
    await release();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${port}`;
  const publicUrl = process.env.CAIRN_PUBLIC_URL ? settings.publicUrl : url;

  let cairn: Cairn;
  try {
    cairn = await openCairn({
      databaseUrl: settings.databaseUrl,
      dataDir: settings.dataDir,
      publicUrl,
      webhookDenyPrivate: settings.webhookDenyPrivate,
      oauth: settings.oauth,
      ...(settings.mail && { mail: settings.mail }),
      ...(metricsSettings.token && { metricsToken: metricsSettings.token }),
      ...(options.now && { now: options.now }),
    });
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await release();
    throw err;
  }
  const app = createRestApp(cairn, {
    version,
    // A log shipper wants the request lines: JSON logs carry them unless CAIRN_ACCESS_LOG=0.
    accessLog: process.env.CAIRN_ACCESS_LOG === "1" || (logFormat === "json" && process.env.CAIRN_ACCESS_LOG !== "0"),
    mounts: { "/mcp": createMcpHttpHandler(cairn, { version }) },
    trustProxy,
  });
  app.route("/", createWebApp(cairn));
  handler = app.fetch;
  // Webhook delivery and scheduled jobs run in every server process; on the embedded store this is the only worker.
  const worker: Worker = cairn.startWorker({
    denyPrivate: settings.webhookDenyPrivate,
    schedule: scheduleFrom(settings),
  });
  collectProcessMetrics();
  let metrics: MetricsListener | undefined;

  try {
    metrics = await startMetricsListener(cairn, metricsSettings);
    // The credentials file is written inside the bootstrap transaction, before the admin commits.
    let kept: string | null = null;
    const admin = await cairn.bootstrapAdmin({
      ...(settings.adminTokenName !== undefined && { tokenName: settings.adminTokenName }),
      persist: async (token) => {
        try {
          // A file `cairn login` wrote for another server is kept beside the new one, not lost.
          kept = await replaceCredentials(settings.credentialsPath, { url, token: token.token });
        } catch (err) {
          throw new Error(`could not write ${settings.credentialsPath} (${(err as Error).message}); no admin was created. Fix it and start again.`);
        }
      },
    });
    if (admin && kept) log.info(`The credentials file held another token; it is kept in ${kept}.`);
    if (admin) log.info(`Created the admin user; its token is in ${settings.credentialsPath} (mode 0600).`);
    else {
      const creds = await readCredentials(settings.credentialsPath).catch(() => null);
      // A new port for this server's own token; a file `cairn login` pointed at another server is left alone.
      if (creds && creds.url !== url && (await cairn.authenticate(creds.token))) await writeCredentials(settings.credentialsPath, { ...creds, url });
      log.info(
        creds
          ? `Credentials: ${settings.credentialsPath}`
          : `No credentials file at ${settings.credentialsPath}; use a token from your administrator (CAIRN_TOKEN).`,
      );
    }
  } catch (err) {
    // Everything close() stops: a worker left running would poll the closed store for as long as the process lives.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await metrics?.close();
    await worker.stop();
    await cairn.close();
    await release();
    throw err;
  }
  log.info(`Cairn ${version} listening on ${url} (${settings.databaseUrl ? "PostgreSQL" : `embedded store in ${settings.dataDir}`})`);
  log.info(`API docs: ${url}/docs`);
  log.info(`MCP (Streamable HTTP): ${url}/mcp`);
  if (metrics) log.info(`Metrics (no token): ${metrics.url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    cairn,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await metrics?.close();
        await worker.stop();
        await cairn.close();
        await release();
      })();
      return closing;
    },
  };
}
