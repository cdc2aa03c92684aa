import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { onOutboxRing } from "../events/wake.js";
import { receiveTraces } from "../otlp/receive.js";
import { CONCURRENCY_DRIVERS, fullReceipt, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/**
 * ADR 0027: a `cairn serve` process remembers principals and policies, and a receipt's one
 * write statement re-checks them. Another process (here: a second core on the same store,
 * with caches of its own) changing a token, a team or a policy must take effect on the
 * very next request of the first.
 */
describe.each(CONCURRENCY_DRIVERS)("cached callers and policies on %s", (driver) => {
  const fx = useTestWorld(driver);
  const serve = () => createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL });
  const bearer = (token: string) => `Bearer ${token}`;

  /** A request as REST makes it: the caller from the header, cached after the first time. */
  async function post(cairn: ReturnType<typeof serve>, token: string, receipt: unknown) {
    const principal = await cairn.authenticateHeader(bearer(token), { cached: true });
    return cairn.invoke("receipt_create", cairn.context(principal, "rest"), receipt);
  }

  async function dropCount(token: string): Promise<number> {
    const cairn = serve();
    const principal = await cairn.authenticateHeader(bearer(token));
    return (await cairn.invoke("drops_list", cairn.context(principal, "rest"), {})).items.length;
  }

  it("a token revoked elsewhere gets 401 on its next receipt, valid or not, and leaves no drop", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "ci", kind: "agent" });
    const a = serve();
    await post(a, agent.token, fullReceipt({ learned: "first, which fills the cache" }));
    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: agent.id });

    // The cache still knows the token: authenticating does not read it again...
    await expect(a.authenticateHeader(bearer(agent.token), { cached: true })).resolves.toBeDefined();
    // ...but the write does.
    expect((await rejectionOf(post(a, agent.token, fullReceipt({ learned: "after revocation" })))).code).toBe("unauthenticated");
    expect((await rejectionOf(post(a, agent.token, { changed: "" }))).code).toBe("unauthenticated");
    expect(await dropCount(sam.token)).toBe(0);
    const stored = await fx.store.query("select 1 from artifacts where owner = $1", [`user:${sam.name}`]);
    expect(stored).toHaveLength(1);
  });

  it("every other operation re-reads a cached caller first", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "ci", kind: "agent" });
    const a = serve();
    await post(a, agent.token, fullReceipt());
    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: agent.id });
    const principal = await a.authenticateHeader(bearer(agent.token), { cached: true });
    const search = a.invoke("artifact_search", a.context(principal, "rest"), {});
    expect((await rejectionOf(search)).code).toBe("unauthenticated");
  });

  it("a policy changed elsewhere decides the next receipt", async () => {
    const sam = await fx.world.user("sam");
    const a = serve();
    await post(a, sam.token, minimalReceipt({ learned: "under the default policy" }));
    await serve().invoke("policy_set", sam.ctx(), { require_evidence: true, default_ttl_days: 30 });

    const refused = await rejectionOf(post(a, sam.token, minimalReceipt({ learned: "now evidence is required" })));
    expect(refused.code).toBe("validation_failed");
    expect(refused.issues?.[0]?.field).toBe("evidence");
    expect(await dropCount(sam.token)).toBe(1);
    const created = await post(a, sam.token, fullReceipt({ learned: "with evidence" }));
    const days = (Date.parse(created.expires_at ?? "") - Date.parse(created.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
  });

  it("a member removed from a team elsewhere cannot write for it on the next request; one added can", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const team = await fx.world.team([sam, dana]);
    const a = serve();
    await post(a, dana.token, fullReceipt({ owner: team, learned: "while a member" }));
    await serve().invoke("team_member_remove", sam.ctx(), { name: team.slice("team:".length), user: dana.name });

    const refused = await rejectionOf(post(a, dana.token, fullReceipt({ owner: team, learned: "after removal" })));
    expect(refused.code).toBe("forbidden");

    const kim = await fx.world.user("kim");
    await post(a, kim.token, fullReceipt({ learned: "kim is cached without the team" }));
    await serve().invoke("team_member_add", sam.ctx(), { name: team.slice("team:".length), user: kim.name });
    await serve().invoke("team_invitation_accept", kim.ctx(), { name: team.slice("team:".length) });
    const created = await post(a, kim.token, fullReceipt({ owner: team, learned: "kim was added elsewhere" }));
    expect(created.owner).toBe(team);
  });

  it("wakes the delivery worker only when the receipt queued a delivery", async () => {
    const sam = await fx.world.user("sam");
    let rings = 0;
    const stop = onOutboxRing(() => rings++);
    try {
      await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "nobody subscribed" }));
      expect(rings).toBe(0);
      await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "https://hooks.example.com/cairn" });
      await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "one subscription" }));
      expect(rings).toBe(1);
    } finally {
      stop();
    }
  });
});

/**
 * ADR 0063: an OTLP export is one write statement that re-checks the remembered caller and
 * policies the same way, so a change made by another process decides the very next export.
 */
describe.each(CONCURRENCY_DRIVERS)("cached callers and policies for OTLP exports on %s", (driver) => {
  const fx = useTestWorld(driver);
  const serve = () => createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL });
  const bearer = (token: string) => `Bearer ${token}`;
  let counter = 0;
  const id = (bytes: number) => (++counter).toString(16).padStart(bytes * 2, "0");

  /** An export as REST makes it: the caller from the header, cached after the first time. */
  async function exportSpans(cairn: ReturnType<typeof serve>, token: string, spans: Array<{ owner?: string; attributes?: unknown[] }>) {
    const principal = await cairn.authenticateHeader(bearer(token), { cached: true });
    const traceId = id(16);
    const resourceSpans = spans.map((s) => ({
      resource: { attributes: s.owner ? [{ key: "cairn.owner", value: { stringValue: s.owner } }] : [] },
      scopeSpans: [{ spans: [{ traceId, spanId: id(8), name: "step", startTimeUnixNano: "1764600000000000000", attributes: s.attributes ?? [] }] }],
    }));
    const reply = await receiveTraces(cairn.context(principal, "rest"), {
      body: Buffer.from(JSON.stringify({ resourceSpans })),
      contentType: "application/json",
      contentEncoding: undefined,
    });
    return { ...reply, traceId };
  }
  const spanCount = async (owner: string) =>
    Number((await fx.store.query<{ n: number }>("select count(*)::int as n from spans s join runs r on r.id = s.run_id where r.owner = $1", [owner]))[0]?.n);

  it("a token revoked elsewhere gets 401 on its next export, and nothing is stored", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "otel", kind: "agent" });
    const a = serve();
    expect((await exportSpans(a, agent.token, [{}])).result?.stored).toBe(1);
    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: agent.id });
    await expect(a.authenticateHeader(bearer(agent.token), { cached: true })).resolves.toBeDefined();
    expect((await exportSpans(a, agent.token, [{}])).code).toBe("unauthenticated");
    expect(await spanCount(`user:${sam.name}`)).toBe(1);
  });

  it("a policy changed elsewhere decides the next export: a secret once redacted is now refused", async () => {
    const sam = await fx.world.user("sam");
    const secret = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
    const withSecret = [{ attributes: [{ key: "auth", value: { stringValue: secret } }] }];
    const a = serve();
    const redacted = await exportSpans(a, sam.token, withSecret);
    expect(redacted.result).toMatchObject({ stored: 1, rejected: 0 });
    await serve().invoke("policy_set", sam.ctx(), { secrets: "block" });
    const blocked = await exportSpans(a, sam.token, withSecret);
    expect(blocked.result).toMatchObject({ stored: 0, rejected: 1 });
    expect(blocked.result?.message).toContain("the owner's policy blocks secrets");
  });

  it("an export larger than one embedded chunk is scanned under a policy changed elsewhere too", async () => {
    const sam = await fx.world.user("sam");
    const secret = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
    const a = serve();
    expect((await exportSpans(a, sam.token, [{}])).result?.stored).toBe(1);
    await serve().invoke("policy_set", sam.ctx(), { secrets: "block" });
    // 300 spans: past the embedded store's chunk of 250, whose chunks are written unchecked with facts read for the request.
    const many = Array.from({ length: 300 }, (_, i) => (i === 299 ? { attributes: [{ key: "auth", value: { stringValue: secret } }] } : {}));
    const blocked = await exportSpans(a, sam.token, many);
    expect(blocked.result).toMatchObject({ stored: 299, rejected: 1 });
    expect(blocked.result?.message).toContain("the owner's policy blocks secrets");
  });

  it("a member removed from a team elsewhere cannot export for it on the next request; one added can", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const team = await fx.world.team([sam, dana]);
    const a = serve();
    expect((await exportSpans(a, dana.token, [{ owner: team }])).result?.stored).toBe(1);
    await serve().invoke("team_member_remove", sam.ctx(), { name: team.slice("team:".length), user: dana.name });
    const refused = await exportSpans(a, dana.token, [{ owner: team }]);
    expect(refused.result).toMatchObject({ stored: 0, rejected: 1 });
    expect(refused.result?.message).toContain("cannot act for");

    const kim = await fx.world.user("kim");
    expect((await exportSpans(a, kim.token, [{}])).result?.stored).toBe(1);
    await serve().invoke("team_member_add", sam.ctx(), { name: team.slice("team:".length), user: kim.name });
    await serve().invoke("team_invitation_accept", kim.ctx(), { name: team.slice("team:".length) });
    expect((await exportSpans(a, kim.token, [{ owner: team }])).result?.stored).toBe(1);
    expect(await spanCount(team)).toBe(2);
  });
});
