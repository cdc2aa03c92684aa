import { ADAPTER_DRIVERS, fullReceipt, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRestApp } from "../app.js";
import { openRestHarness, type RestHarness } from "./harness.js";

const MARKER = "RST-MARKER-51c0e";
const ghp = ["ghp_", "Zz9Yy8Xx7Ww6Vv5Uu4Tt", "3Ss2Rr1Qq0Pp9Oo8"].join("");

type Case = [category: string, status: number, fields: string[], body: (h: RestHarness, token: string) => Promise<unknown>, setup?: Record<string, unknown>];

// Every category minted by a real POST /v1/receipts, each carrying the marker in the rejected values.
const CASES: Case[] = [
  ["invalid", 422, ["after"], async () => minimalReceipt({ after: `${MARKER}${"a".repeat(4001)}` })],
  ["unknown-schema", 422, ["schema"], async () => minimalReceipt({ schema: `${MARKER}/v2` })],
  ["unsafe-link", 422, ["evidence.0.url"], async () => minimalReceipt({ evidence: [{ label: MARKER, url: `javascript:${MARKER}` }] })],
  ["too-thin", 422, ["changed"], async () => minimalReceipt({ changed: MARKER })],
  ["foreign-link", 422, ["follows"], async () => minimalReceipt({ follows: "art_00000000000000000000000000", before: MARKER })],
  ["secret-detected", 422, ["before"], async () => minimalReceipt({ before: `${MARKER} ${ghp}` }), { secrets: "block" }],
  ["policy-vetoed", 422, ["evidence"], async () => minimalReceipt({ before: MARKER }), { require_evidence: true }],
  [
    "duplicate",
    409,
    [],
    async (h, token) => {
      await h.call("POST", "/v1/receipts", { token, body: minimalReceipt({ before: MARKER }) });
      return minimalReceipt({ before: MARKER });
    },
  ],
  ["unknown", 422, ["(input)"], async () => minimalReceipt({ before: MARKER, tags: ["freeze"] })],
];

describe.each(ADAPTER_DRIVERS)("REST gates, drops, doctor, status and policy on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver, {
      gates: [{ name: "freeze", check: (r) => (r.tags.includes("freeze") ? { reason: "frozen", category: "freeze-window" } : null) }],
    });
  });
  afterAll(async () => h?.close());

  it.each(CASES)(
    "%s → %i with the drop, listed by GET /v1/drops; no value in drops, doctor, status or logs",
    async (category, status, fields, body, policy) => {
      const sam = await h.world.user("sam");
      if (policy) expect((await h.call("PUT", "/v1/policy", { token: sam.token, body: policy })).status).toBe(200);
      const logged = createRestApp(h.world.cairn, { accessLog: true });
      const lines: string[] = [];
      const saved = [console.log, console.error, console.warn];
      console.log = console.error = console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
      let res: Response;
      let text: string;
      try {
        const payload = JSON.stringify(await body(h, sam.token));
        res = await logged.request("/v1/receipts", {
          method: "POST",
          headers: { authorization: `Bearer ${sam.token}`, "content-type": "application/json" },
          body: payload,
        });
        text = await res.text();
      } finally {
        [console.log, console.error, console.warn] = saved as [typeof console.log, typeof console.error, typeof console.warn];
      }
      expect(res.status).toBe(status);
      const { error } = JSON.parse(text);
      expect(error.drop).toMatchObject({ category, fields, owner: `user:${sam.name}`, surface: "rest" });
      const drops = await h.call("GET", "/v1/drops", { token: sam.token });
      expect(drops.json).toEqual({ items: [error.drop], next_cursor: null });
      const doctor = await h.call("GET", "/v1/doctor", { token: sam.token });
      const statusRes = await h.call("GET", "/v1/status", { token: sam.token });
      expect(statusRes.json.drops.counts).toEqual({ [category]: 1 });
      for (const t of [text, drops.text, doctor.text, statusRes.text, lines.join("\n")]) expect(t).not.toContain(MARKER);
    },
  );

  it("malformed JSON and an oversized body never reach the gates but still leave an `invalid` drop on (input)", async () => {
    const sam = await h.world.user("sam");
    const bad = await h.call("POST", "/v1/receipts", { token: sam.token, rawBody: `{"changed": "${MARKER}` });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toMatchObject({ code: "validation_failed", drop: { category: "invalid", fields: ["(input)"], title: null } });
    const big = await h.call("POST", "/v1/receipts", { token: sam.token, rawBody: JSON.stringify({ details: "z".repeat(3 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    expect(big.json.error.drop).toMatchObject({ category: "invalid", fields: ["(input)"] });
    const drops = await h.call("GET", "/v1/drops", { token: sam.token });
    expect(drops.json.items.map((d: { id: string }) => d.id)).toEqual([big.json.error.drop.id, bad.json.error.drop.id]);
    expect(drops.text).not.toContain(MARKER);
  });

  it("a ghp_ token in a title is withheld in the drop; a token in `before` is redacted and listed", async () => {
    const sam = await h.world.user("sam");
    const refused = await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ title: `Rotated ${ghp}`, learned: "" }) });
    expect(refused.json.error.drop).toMatchObject({ title_withheld: true });
    expect((await h.call("GET", "/v1/drops", { token: sam.token })).text).not.toContain(ghp);
    const created = await h.call("POST", "/v1/receipts", { token: sam.token, body: fullReceipt({ before: `It was ${ghp}.` }) });
    expect(created.status).toBe(201);
    expect(created.json.redactions).toEqual([{ field: "before", rule: "github" }]);
    expect(created.text).not.toContain(ghp);
    const search = await h.call("GET", `/v1/artifacts?q=${encodeURIComponent(ghp)}`, { token: sam.token });
    expect(search.json.items).toEqual([]);
  });

  it("Idempotency-Key: the same key and body replay status and body byte for byte; another body is 422", async () => {
    const sam = await h.world.user("sam");
    const headers = { "idempotency-key": "deploy-4812" };
    const body = fullReceipt({ learned: "idem rest" });
    const first = await h.call("POST", "/v1/receipts", { token: sam.token, body, headers });
    const again = await h.call("POST", "/v1/receipts", { token: sam.token, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.text).toBe(first.text);
    const other = await h.call("POST", "/v1/receipts", { token: sam.token, body: fullReceipt({ learned: "other" }), headers });
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe("idempotency_mismatch");
    const refusedTwice = [];
    for (let i = 0; i < 2; i++)
      refusedTwice.push(
        await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "" }), headers: { "idempotency-key": "bad-1" } }),
      );
    // The same refusal, byte for byte, but for the id of the request it answers (SPEC §30).
    const withoutRequestId = (text: string | undefined) => text?.replace(/,"request_id":"[^"]+"/, "");
    expect(refusedTwice[1]?.json.error.request_id).not.toBe(refusedTwice[0]?.json.error.request_id);
    expect(withoutRequestId(refusedTwice[1]?.text)).toBe(withoutRequestId(refusedTwice[0]?.text));
    expect(refusedTwice[1]?.status).toBe(422);
  });

  it("GET|PUT /v1/policy: any subset, the whole policy back, ?owner=team: for members only", async () => {
    const sam = await h.world.user("sam");
    const eve = await h.world.user("eve");
    const team = await h.world.team([sam]);
    const put = await h.call("PUT", `/v1/policy?owner=${team}`, { token: sam.token, body: { require_evidence: true } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ owner: team, secrets: "redact", entropy_detection: false, require_evidence: true, default_ttl_days: 7 });
    expect((await h.call("GET", `/v1/policy?owner=${team}`, { token: sam.token })).json).toEqual(put.json);
    expect((await h.call("GET", `/v1/policy?owner=${team}`, { token: eve.token })).status).toBe(403);
    const bad = await h.call("PUT", "/v1/policy", { token: sam.token, body: { default_ttl_days: 100000 } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.issues).toEqual([{ field: "default_ttl_days", reason: "must be at most 3650", limit: 3650 }]);
    // The Policy finding shows while the vetoing rule is on, and goes when it is switched off.
    await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ owner: team }) });
    const doctor = await h.call("GET", "/v1/doctor", { token: sam.token });
    expect(doctor.json.checks.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ["Database", "ok"],
      ["Drops", "warn"],
      ["Policy", "warn"],
      ["Webhooks", "ok"],
      ["Inbox", "ok"],
      ["Notifications", "ok"],
    ]);
    await h.call("PUT", `/v1/policy?owner=${team}`, { token: sam.token, body: { require_evidence: false } });
    const cleared = await h.call("GET", "/v1/doctor", { token: sam.token });
    expect(cleared.json.checks.map((c: { name: string }) => c.name)).toEqual(["Database", "Drops", "Webhooks", "Inbox", "Notifications"]);
    const status = await h.call("GET", "/v1/status", { token: sam.token });
    expect(status.json.lines).toEqual(["Last receipt: none yet", "Drops (7d): 1 policy-vetoed", "Inbox: nothing open"]);
  });

  it("/openapi.json documents the new routes, the Idempotency-Key header and the 409", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    for (const [path, method] of [
      ["/v1/drops", "get"],
      ["/v1/doctor", "get"],
      ["/v1/status", "get"],
      ["/v1/policy", "get"],
      ["/v1/policy", "put"],
    ]) {
      expect(doc.paths[path as string][method as string], `${method} ${path}`).toBeDefined();
    }
    const post = doc.paths["/v1/receipts"].post;
    expect(post.parameters.some((p: { name: string; in: string }) => p.name === "idempotency-key" && p.in === "header")).toBe(true);
    expect(post.responses["409"]).toBeDefined();
  });
});
