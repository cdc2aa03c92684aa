import type { Store } from "@cairn/core";
import { createTestWorld, DRIVERS, openTestStore, TEST_PUBLIC_URL } from "@cairn/core/testing";
import { createRestApp } from "@cairn/rest";
import { createWebApp } from "@cairn/web";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileString, wrongType } from "../strings.js";

/** Generated requests per store, over the four OAuth endpoints (SPEC §26). */
const PER_STORE = Number(process.env.HOSTILE_OAUTH ?? 400);
const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
const REDIRECT = "http://127.0.0.1:9/cb";
/** OAuth's own error codes, the only ones the JSON endpoints may answer with. */
const OAUTH_ERRORS = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_target",
  "invalid_redirect_uri",
  "invalid_client_metadata",
]);
const FIELDS = [
  "grant_type",
  "code",
  "redirect_uri",
  "client_id",
  "code_verifier",
  "refresh_token",
  "resource",
  "token",
  "token_type_hint",
  "scope",
  "state",
  "response_type",
  "code_challenge",
  "code_challenge_method",
];

type Endpoint = "token" | "revoke" | "register" | "authorize";
interface Case {
  endpoint: Endpoint;
  /** What is done to a genuine request: a field set, repeated or removed. */
  mutations: Array<{ mode: "set" | "append" | "delete"; name: string; value: string }>;
  contentType: string | null;
  json: unknown;
}

/** A genuine request of each endpoint, which the mutations then spoil (so checks past the first are reached). */
function genuineRequest(endpoint: Endpoint, clientId: string): Record<string, string> {
  switch (endpoint) {
    case "token":
      return {
        grant_type: "authorization_code",
        code: "a".repeat(43),
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: "v".repeat(43),
        resource: `${TEST_PUBLIC_URL}/mcp`,
      };
    case "revoke":
      return { token: "cairn_oat_x", client_id: clientId };
    case "register":
      return {};
    case "authorize":
      return {
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: "c".repeat(43),
        code_challenge_method: "S256",
        state: "s",
        resource: `${TEST_PUBLIC_URL}/mcp`,
      };
  }
}

const cases: fc.Arbitrary<Case> = fc.record({
  endpoint: fc.constantFrom<Endpoint>("token", "revoke", "register", "authorize"),
  mutations: fc.array(
    fc.record({
      mode: fc.constantFrom<"set" | "append" | "delete">("set", "set", "append", "delete"),
      name: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: hostileString }),
      value: fc.oneof(
        { weight: 4, arbitrary: hostileString },
        { weight: 1, arbitrary: fc.constantFrom("refresh_token", "authorization_code", "plain", "https://other.example/mcp", "https://127.0.0.1:9/c.json") },
      ),
    }),
    { maxLength: 3 },
  ),
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("application/x-www-form-urlencoded", "application/json") },
    { weight: 1, arbitrary: fc.constantFrom("application/x-www-form-urlencoded; charset=UTF-8", "text/plain", "multipart/form-data; boundary=x", null) },
  ),
  json: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record(
        {
          client_name: fc.oneof(hostileString, wrongType),
          redirect_uris: fc.oneof(
            fc.constant([REDIRECT]),
            fc.array(
              fc.oneof(
                hostileString,
                hostileString.map((h) => `https://a.example/${h}`),
                fc.constant("https://a.example/cb"),
              ),
              { maxLength: 12 },
            ),
            wrongType,
          ),
          grant_types: fc.oneof(fc.array(fc.constantFrom("authorization_code", "refresh_token", "password"), { maxLength: 3 }), wrongType),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 1, arbitrary: fc.oneof(wrongType, hostileString) },
  ),
});

describe.each(DRIVERS)(`hostile OAuth requests (seed ${SEED}) on %s`, (driver) => {
  let store: Store;
  let app: ReturnType<typeof createRestApp>;
  let clientId: string;

  beforeAll(async () => {
    store = await openTestStore(driver);
    const world = await createTestWorld(store);
    app = createRestApp(world.cairn);
    app.route("/", createWebApp(world.cairn));
    const client = await world.cairn.oauth.register({ client_name: "Genuine", redirect_uris: [REDIRECT] });
    clientId = client.client_id;
  });
  afterAll(async () => store?.close());

  it(`${PER_STORE} generated requests to token, revoke, register and authorize: no 5xx, OAuth's error shape, redirects only to the registered URI`, async () => {
    const failures: string[] = [];
    const seen = new Map<string, number>();
    for (const c of fc.sample(cases, { numRuns: PER_STORE, seed: SEED + (driver === "pg" ? 1 : 0) })) {
      const params = new URLSearchParams(genuineRequest(c.endpoint, clientId));
      for (const m of c.mutations) {
        if (m.mode === "delete") params.delete(m.name);
        else params[m.mode](m.name, m.value);
      }
      const form = params.toString();
      const where = `${c.endpoint} ${JSON.stringify(c).slice(0, 300)}`;
      let res: Response;
      if (c.endpoint === "authorize") {
        res = await app.request(`/oauth/authorize?${form}`);
      } else {
        const registration =
          typeof c.json === "object" && c.json !== null && !Array.isArray(c.json) ? { client_name: "Genuine", redirect_uris: [REDIRECT], ...c.json } : c.json;
        const body = c.endpoint === "register" && c.contentType === "application/json" ? JSON.stringify(registration) : form;
        res = await app.request(`/oauth/${c.endpoint}`, { method: "POST", headers: c.contentType ? { "content-type": c.contentType } : {}, body });
      }
      seen.set(`${c.endpoint} ${res.status}`, (seen.get(`${c.endpoint} ${res.status}`) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${res.status}: ${where}`);
      if (c.endpoint === "authorize") {
        const location = res.headers.get("location");
        if (res.status === 302 && !location?.startsWith(`${REDIRECT}?`)) failures.push(`redirect to ${location}: ${where}`);
        continue;
      }
      if (res.status >= 400) {
        const answer = (await res.json().catch(() => null)) as { error?: string; error_description?: string } | null;
        if (!answer || !OAUTH_ERRORS.has(answer.error ?? "") || typeof answer.error_description !== "string")
          failures.push(`shape ${JSON.stringify(answer)}: ${where}`);
      }
    }
    // Every endpoint is reached past its first check: a genuine registration, a sign-in redirect, an error sent back to the client.
    for (const answer of ["register 201", "authorize 303", "authorize 302", "revoke 200"]) expect(seen.get(answer) ?? 0, answer).toBeGreaterThan(0);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 300_000);
});
