import { createServer, type Server, Socket } from "node:net";

export type ProxyMode = "pass" | "stuck" | "down";

export interface DatabaseProxy {
  /** The database URL rewritten to go through this proxy. */
  url: string;
  /**
   * `pass` forwards to the real PostgreSQL; `stuck` keeps accepting connections and
   * holding the open ones but never forwards a byte (a hung server or network); `down`
   * closes the port and drops every connection (a dead server).
   */
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

/** A loopback TCP relay in front of a real PostgreSQL, so a test can make that database stuck or down. */
export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const targetPort = Number(target.port || 5432);
  const sockets = new Set<Socket>();
  let mode: ProxyMode = "pass";
  let server: Server | undefined;
  let port = 0;

  const onConnection = (client: Socket) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (mode !== "pass") return; // stuck: accepted, never answered
    const upstream = new Socket();
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.connect(targetPort, target.hostname);
    client.on("data", (d) => {
      if (mode === "pass") upstream.write(d);
    });
    upstream.on("data", (d) => {
      if (mode === "pass") client.write(d);
    });
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      const listening = createServer(onConnection);
      server = listening;
      listening.listen(port, "127.0.0.1", () => {
        port = (listening.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    async set(next) {
      if (next === "down") await stop();
      else if (!server) await listen();
      mode = next;
    },
    close: stop,
  };
}
