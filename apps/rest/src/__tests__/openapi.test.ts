import { API_TAGS, OPERATIONS, operationNames, ReceiptFields } from "@cairn/core";
import { ADAPTER_DRIVERS, TEST_PUBLIC_URL } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusOf } from "../adapter.js";
import { documentTags } from "../openapi.js";
import { openApiPath, routeOf } from "../routes.js";
import { openRestHarness, type RestHarness } from "./harness.js";

describe.each(ADAPTER_DRIVERS)("published schemas on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness(driver);
  });
  afterAll(async () => h?.close());

  it("GET /v1/schemas/cairn.receipt/v1 names every receipt field, each described, without a token", async () => {
    const res = await h.call("GET", "/v1/schemas/cairn.receipt/v1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/schema+json");
    const schema = res.json;
    expect(schema.$schema).toContain("2020-12");
    for (const field of [...Object.keys(ReceiptFields.shape), "title", "details", "tags", "model", "owner", "schema"]) {
      expect(schema.properties[field], field).toBeDefined();
      expect(schema.properties[field].description, field).toBeTruthy();
    }
    expect(schema.required).toEqual(expect.arrayContaining(["changed", "affected", "before", "after", "evidence", "outcome", "remaining", "learned"]));
    expect(schema.required).not.toContain("human_action");
  });

  it("an unknown schema → 404", async () => {
    const res = await h.call("GET", "/v1/schemas/cairn.receipt/v7");
    expect(res.status).toBe(404);
  });

  it("/openapi.json is OpenAPI 3.1 with every operation and the bearer scheme", async () => {
    const res = await h.call("GET", "/openapi.json");
    expect(res.json.openapi).toBe("3.1.0");
    expect(res.json.paths["/v1/receipts"].post.operationId).toBe("receipt_create");
    expect(res.json.paths["/v1/artifacts/{id}"].get.operationId).toBe("artifact_read");
    expect(Object.keys(res.json.paths["/v1/traces"].post.requestBody.content)).toEqual(["application/x-protobuf", "application/json"]);
    expect(res.json.components.securitySchemes.bearer.scheme).toBe("bearer");
  });

  it("/openapi.json lists every status each route can answer, derived from the operation's error codes", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    for (const name of operationNames()) {
      const route = routeOf(name, OPERATIONS[name].mutates);
      const responses = doc.paths[openApiPath(route.path)][route.method].responses;
      const expected = new Set([route.status, 401, 500, 503, ...OPERATIONS[name].errors.map(statusOf)]);
      if (route.input.includes("body")) for (const s of [413, 415, 422]) expected.add(s);
      expect(Object.keys(responses).map(Number).sort(), name).toEqual([...expected].sort());
      for (const [status, r] of Object.entries<any>(responses)) expect(r.description, `${name} ${status}`).toBeTruthy();
    }
    const receipt = doc.paths["/v1/receipts"].post;
    expect(Object.keys(receipt.responses)).toEqual(expect.arrayContaining(["201", "409", "413", "415", "422", "503"]));
    expect(receipt.parameters.map((p: any) => p.name)).toContain("idempotency-key");
    expect(doc.paths["/v1/artifacts/{id}"].get.responses["410"]).toBeDefined();
    expect(doc.paths["/v1/artifacts"].get.parameters.map((p: any) => p.name)).not.toContain("idempotency-key");
    const schema = doc.paths["/v1/schemas/{schema}"].get;
    expect(schema.parameters[0]).toMatchObject({ name: "schema", in: "path" });
    expect(Object.keys(schema.responses)).toEqual(["200", "404", "500"]);
  });

  it("/openapi.json names the public URL as its server, and each tag it uses with the description core declares", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json;
    expect(doc.servers).toEqual([{ url: TEST_PUBLIC_URL, description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: "MIT License", identifier: "MIT" });
    expect(doc.info.contact.url).toBe(`${TEST_PUBLIC_URL}/docs`);
    const receipts = API_TAGS.find((t) => t.name === "Receipts");
    expect(doc.tags).toContainEqual({ name: "Receipts", description: receipts?.description });
    expect(doc.paths["/v1/schemas/{schema}"].get.security).toEqual([]);
    expect(doc.paths["/v1/keys"].get.security).toEqual([]);
  });

  it("/docs is a self-contained HTML page listing the receipt route", async () => {
    const res = await h.call("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.text).toContain("/v1/receipts");
    expect(res.text).not.toMatch(/<script/i);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("the document's tags", () => {
  it("lists a tag no area declares without a description, so the lint test can name it", () => {
    const paths = { "/a": { get: { tags: ["Receipts"] } }, "/b": { post: { tags: ["Undeclared"] } } };
    expect(documentTags(paths)).toEqual([{ name: "Receipts", description: expect.any(String) }, { name: "Undeclared" }]);
  });
});
