import { existsSync } from "node:fs";
import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { CADDY_BIN, startCaddy } from "./caddy.js";
import { adminTokenIn } from "./mcp-harness.js";
import { freeLoopbackPort } from "./prometheus.js";
import { homeFor, spawnServe } from "./serve-process.js";

const cookiesOf = (headers: Record<string, string | string[] | undefined>) => {
  const set = headers["set-cookie"];
  return Array.isArray(set) ? set : set ? [set] : [];
};

/**
 * SPEC §39, the README's "Run it in production": Caddy terminates TLS with its internal
 * CA and proxies to `cairn serve` on loopback, which trusts it (CAIRN_TRUST_PROXY=loopback)
 * and knows its public address (CAIRN_PUBLIC_URL). Through Caddy a person signs in with
 * Secure cookies, and the links and OAuth metadata Cairn hands out are https.
 */
describe.skipIf(!existsSync(CADDY_BIN))("cairn serve behind Caddy with TLS (needs Debian's caddy package)", () => {
  it("signs in with __Host- Secure cookies and hands out https share and OAuth URLs", async () => {
    const { env, home, dispose } = await homeFor("pglite");
    const httpsPort = await freeLoopbackPort();
    const publicUrl = `https://127.0.0.1:${httpsPort}`;
    const serve = await spawnServe({ ...env, CAIRN_PUBLIC_URL: publicUrl, CAIRN_TRUST_PROXY: "loopback", CAIRN_ACCESS_LOG: "1" });
    let caddy: Awaited<ReturnType<typeof startCaddy>> | undefined;
    try {
      caddy = await startCaddy(new URL(serve.url).host, httpsPort);
      expect(caddy.url).toBe(publicUrl);
      const token = adminTokenIn(home);

      const page = await caddy.fetch("/signin");
      expect(page.status).toBe(200);
      const [signinCookie] = cookiesOf(page.headers);
      expect(signinCookie).toMatch(/^__Host-cairn_signin=[^;]+;.*Secure/i);
      const csrf = page.body.match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";
      const signedIn = await caddy.fetch("/signin", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: (signinCookie as string).split(";")[0] as string,
          origin: publicUrl,
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams({ token, csrf, next: "/" }).toString(),
      });
      expect(signedIn.status, signedIn.body).toBe(303);
      const session = cookiesOf(signedIn.headers).find((c) => c.startsWith("__Host-cairn_session="));
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);

      const created = await caddy.fetch("/v1/receipts", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(minimalReceipt()),
      });
      expect(created.status, created.body).toBe(201);
      const url = (JSON.parse(created.body) as { url: string }).url;
      expect(url.startsWith(`${publicUrl}/s/`)).toBe(true);
      expect((await caddy.fetch(new URL(url).pathname)).status).toBe(200);

      const metadata = await caddy.fetch("/.well-known/oauth-authorization-server");
      expect(metadata.status).toBe(200);
      const server = JSON.parse(metadata.body) as Record<string, unknown>;
      expect(server.issuer).toBe(publicUrl);
      for (const key of ["authorization_endpoint", "token_endpoint"]) expect(String(server[key]).startsWith(`${publicUrl}/`)).toBe(true);
      const resource = await caddy.fetch("/.well-known/oauth-protected-resource");
      expect(resource.status).toBe(200);
      expect(JSON.stringify(JSON.parse(resource.body))).not.toContain("http://");

      // The access log names the client Caddy put in X-Forwarded-For (the forged-header cases: trust-proxy.rest.test.ts).
      const log = serve.output();
      expect(log).toMatch(/path=\/signin status=303 .*client=127\.0\.0\.1/);
    } finally {
      await caddy?.stop();
      await serve.stop();
      await dispose();
    }
  }, 120_000);
});
