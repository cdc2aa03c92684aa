import { createLogger, type Store } from "@cairn/core";
import { createTestWorld, minimalReceipt, openTestStore, type TestWorld } from "@cairn/core/testing";
import { createWebApp } from "@cairn/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRestApp } from "../app.js";

/** The adapter, not storage: one store is enough. */
describe("a request id a user can quote (SPEC §30)", () => {
  let store: Store;
  let world: TestWorld;
  let app: ReturnType<typeof createRestApp>;
  const lines: string[] = [];

  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store, { logger: createLogger({ write: (l) => void lines.push(l) }) });
    app = createRestApp(world.cairn, { accessLog: true });
    // As `cairn serve` mounts it: the web under REST's request ids.
    app.route("/", createWebApp(world.cairn));
  });
  afterAll(async () => store?.close());

  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; request_id?: string } }).error;

  it("every error body carries request_id, equal to the X-Request-Id answered and to the id in the log line: a 404 and a 422", async () => {
    const sam = await world.user("sam");
    const auth = { authorization: `Bearer ${sam.token}` };
    const missing = await app.request("/v1/artifacts/art_nothing_here", { headers: auth });
    expect(missing.status).toBe(404);
    const notFound = await errorOf(missing);
    expect(notFound.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(notFound.request_id).toBe(missing.headers.get("x-request-id"));
    expect(lines.join("\n")).toContain(`path=/v1/artifacts/art_nothing_here status=404 ms=`);
    expect(lines.find((l) => l.includes("path=/v1/artifacts/art_nothing_here"))).toContain(`requestId=${notFound.request_id}`);

    const invalid = await app.request("/v1/receipts", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "x-request-id": "ticket-4711" },
      body: JSON.stringify(minimalReceipt({ learned: "" })),
    });
    expect(invalid.status).toBe(422);
    const refused = await errorOf(invalid);
    expect([refused.code, refused.request_id, invalid.headers.get("x-request-id")]).toEqual(["validation_failed", "ticket-4711", "ticket-4711"]);
    expect(lines.find((l) => l.includes("path=/v1/receipts status=422"))).toContain("requestId=ticket-4711");
  });

  it("the web's error pages show the same id as the header, and a share link read as JSON carries it", async () => {
    const page = await app.request("/s/not-a-real-token");
    expect(page.status).toBe(404);
    const id = page.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(await page.text()).toContain(`Request id: <code>${id}</code>`);
    const json = await app.request("/s/not-a-real-token", { headers: { accept: "application/json" } });
    expect((await errorOf(json)).request_id).toBe(json.headers.get("x-request-id"));
    // Standalone (no REST around it), the web answers and shows an id of its own, once.
    const alone = await createWebApp(world.cairn).request("/s/not-a-real-token");
    expect(await alone.text()).toContain(`Request id: <code>${alone.headers.get("x-request-id")}</code>`);
  });
});

describe("drops about a body that is not JSON, or not an object, never advise about dates (SPEC §24)", () => {
  let store: Store;
  let world: TestWorld;
  let app: ReturnType<typeof createRestApp>;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store);
    app = createRestApp(world.cairn);
  });
  afterAll(async () => store?.close());

  it("a 415 (no Content-Type), malformed JSON and a bare JSON string each leave a drop whose advice fits", async () => {
    const sam = await world.user("sam");
    const post = async (body: string, type?: string) => {
      const res = await app.request("/v1/receipts", {
        method: "POST",
        headers: { authorization: `Bearer ${sam.token}`, ...(type && { "content-type": type }) },
        body,
      });
      return { status: res.status, error: ((await res.json()) as { error: { drop?: { cause: string; next_action: string } } }).error };
    };
    const untyped = await post(JSON.stringify(minimalReceipt()));
    expect(untyped.status).toBe(415);
    expect(untyped.error.drop?.next_action).toContain("Content-Type: application/json");
    const broken = await post('{"changed": ', "application/json");
    expect(broken.status).toBe(422);
    expect(broken.error.drop?.next_action).toContain("line and column");
    const sentence = await post(JSON.stringify("Fixed the export job"), "application/json");
    expect(sentence.status).toBe(422);
    expect(sentence.error.drop?.cause).toContain("not an object of fields");
    for (const { error } of [untyped, broken, sentence]) expect(`${error.drop?.cause} ${error.drop?.next_action}`).not.toMatch(/date|2026-12-01/);
  });
});
