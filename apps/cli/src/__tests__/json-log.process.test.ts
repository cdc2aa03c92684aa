import { DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn } from "./mcp-harness.js";
import { homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

const MARKER = "ZQX-JSONLOG-5c1e";

/**
 * SPEC §39: CAIRN_LOG_FORMAT=json writes one JSON object per line (time, level,
 * request_id, operation, status, duration), with the same rule as the text log: no
 * bodies, no share tokens, no bearer tokens (SPEC §31).
 */
describe.each(DRIVERS)("CAIRN_LOG_FORMAT=json on %s", (driver) => {
  let serve: ServeProcess;
  let dispose: () => Promise<void>;
  let admin: string;
  beforeAll(async () => {
    const h = await homeFor(driver);
    dispose = h.dispose;
    serve = await spawnServe({ ...h.env, CAIRN_LOG_FORMAT: "json" });
    admin = adminTokenIn(h.home);
  });
  afterAll(async () => {
    await serve?.stop();
    await dispose?.();
  });

  it("every log line parses as one object; request lines name the operation; no secret or body reaches it", async () => {
    const post = (body: unknown, token = admin, requestId?: string) =>
      fetch(`${serve.url}/v1/receipts`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(requestId && { "x-request-id": requestId }) },
        body: JSON.stringify(body),
      });
    const made = await post(minimalReceipt({ learned: `${MARKER} lesson` }), admin, "ticket-json-1");
    expect(made.status).toBe(201);
    const share = ((await made.json()) as { url: string }).url.split("/s/")[1] as string;
    expect((await fetch(`${serve.url}/s/${share}`)).status).toBe(200);
    expect((await post({ changed: `${MARKER} refused` }, admin, "ticket-json-2")).status).toBe(422);
    const wrongToken = `cairn_${MARKER}_not_a_token`;
    expect((await post(minimalReceipt(), wrongToken)).status).toBe(401);

    await expect
      .poll(
        () =>
          serve
            .errors()
            .split("\n")
            .filter((l) => l.includes('"unauthenticated"') || l.includes('"status":401')).length,
      )
      .toBeGreaterThan(0);
    const lines = serve
      .errors()
      .split("\n")
      .filter((l) => l.length > 0);
    const objects = lines.map((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(typeof parsed).toBe("object");
      expect(Date.parse(parsed.time as string)).not.toBeNaN();
      expect(["info", "warn", "error"]).toContain(parsed.level);
      return parsed;
    });
    const requests = objects.filter((o) => o.event === "request");
    const created = requests.find((o) => o.request_id === "ticket-json-1");
    expect(created).toMatchObject({ level: "info", operation: "receipt_create", surface: "rest", status: 201, method: "POST", path: "/v1/receipts" });
    expect(typeof created?.duration).toBe("number");
    expect(requests.find((o) => o.request_id === "ticket-json-2")).toMatchObject({ operation: "receipt_create", status: 422 });
    expect(requests.find((o) => o.path === "/s/…")).toMatchObject({ operation: "/s/:token", surface: "web", status: 200 });
    expect(requests.find((o) => o.status === 401)).toMatchObject({ operation: "receipt_create" });
    const log = lines.join("\n");
    for (const secret of [MARKER, share, admin, wrongToken]) expect(log).not.toContain(secret);
  });
});
