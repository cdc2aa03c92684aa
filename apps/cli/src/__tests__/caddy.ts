import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "./prometheus.js";

export const CADDY_BIN = "/usr/bin/caddy";

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RunningCaddy {
  /** https://127.0.0.1:PORT, served with a certificate from Caddy's own internal CA. */
  url: string;
  /** Sends a request through Caddy, trusting only its internal root certificate. */
  fetch(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<HttpsAnswer>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's Caddy on free loopback ports with `tls internal`, in front of `upstream`
 * (host:port). Its data and config (the local CA's keys) live in a temp dir through
 * XDG_DATA_HOME / XDG_CONFIG_HOME; the admin API is off and the CA is never installed
 * into the system's trust store.
 */
export async function startCaddy(upstream: string, httpsPort?: number): Promise<RunningCaddy> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-caddy-"));
  const port = httpsPort ?? (await freeLoopbackPort());
  const httpPort = await freeLoopbackPort();
  await mkdir(join(dir, "data"));
  await mkdir(join(dir, "config"));
  const caddyfile = `{
\tadmin off
\tskip_install_trust
\tauto_https disable_redirects
\thttp_port ${httpPort}
\thttps_port ${port}
}

https://127.0.0.1:${port} {
\tbind 127.0.0.1
\ttls internal
\treverse_proxy ${upstream}
}
`;
  await writeFile(join(dir, "Caddyfile"), caddyfile);
  const child: ChildProcess = spawn(CADDY_BIN, ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
    await rm(dir, { recursive: true, force: true });
  };
  const url = `https://127.0.0.1:${port}`;
  const rootPath = join(dir, "data", "caddy", "pki", "authorities", "local", "root.crt");
  let ca: string | undefined;
  const send = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<HttpsAnswer>((resolve, reject) => {
      const req = request(`${url}${path}`, { method: init.method ?? "GET", headers: init.headers ?? {}, ca, timeout: 10_000 }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
      req.end(init.body);
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited:\n${out}`);
    ca ??= await readFile(rootPath, "utf8").catch(() => undefined);
    const ok =
      ca !== undefined &&
      (await send("/healthz").then(
        (r) => r.status === 200,
        () => false,
      ));
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`caddy did not serve ${url}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, fetch: send, output: () => out, stop };
}
