import { readFileSync } from "node:fs";
import { OPERATIONS, operationNames } from "@cairn/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GeneratedClient, generateClient, typescriptVersion } from "../generated-client.js";
import { redoclyFindings, spectralFindings } from "../lint.js";
import { type Served, serve } from "../serve.js";

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** Every operation of the document with where it is, so a failure names it. */
function operationsOf(doc: Json): { where: string; op: Json }[] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ where: `${m.toUpperCase()} ${path}`, op: item[m] as Json })),
  );
}

// One real `cairn serve`, used as an integrator would: its /openapi.json linted, then a client generated from it.
let server: Served;
let text: string;
let doc: Json;
beforeAll(async () => {
  server = await serve();
  const res = await fetch(`${server.url}/openapi.json`);
  expect(res.status).toBe(200);
  text = await res.text();
  doc = JSON.parse(text);
});
afterAll(async () => server?.close());

describe("the OpenAPI document of a running server", () => {
  it("has no errors or warnings under Spectral's spectral:oas ruleset", async () => {
    expect(await spectralFindings(text)).toEqual([]);
  });

  it("has no errors or warnings under Redocly's recommended rules", async () => {
    expect(await redoclyFindings(text)).toEqual([]);
  });

  it("names the server it came from, its license and a contact", () => {
    expect(doc.servers).toEqual([{ url: server.url, description: expect.any(String) }]);
    const rootPackage = JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8"));
    expect(doc.info.license.identifier).toBe(rootPackage.license);
    expect(readFileSync(new URL("../../../../LICENSE", import.meta.url), "utf8")).toMatch(/^MIT License/);
    expect(doc.info.contact).toEqual({ name: expect.stringContaining(new URL(server.url).host), url: `${server.url}/docs` });
  });

  it("declares, with a description, every tag an operation uses, and only those", () => {
    const declared = new Map<string, string | undefined>(doc.tags.map((t: Json) => [t.name, t.description]));
    const used = new Set(operationsOf(doc).flatMap(({ op }) => op.tags ?? []));
    const undescribed = [...used].filter((tag) => !declared.get(tag)?.trim());
    expect(undescribed, "tags without a description: declare each in core next to its area (API_TAGS)").toEqual([]);
    expect([...declared.keys()].sort()).toEqual([...used].sort());
    const untagged = operationsOf(doc)
      .filter(({ op }) => !op.tags?.length)
      .map(({ where }) => where);
    expect(untagged, "operations without a tag").toEqual([]);
  });

  it("states security on every operation: the empty list on public ones, the bearer token elsewhere", () => {
    const publicOps = operationsOf(doc)
      .filter(({ op }) => Array.isArray(op.security) && op.security.length === 0)
      .map(({ op }) => op.operationId);
    const publicRegistryOps = operationNames().filter((name) => OPERATIONS[name].runPublic);
    expect(publicOps.sort()).toEqual([...publicRegistryOps, "schema_read"].sort());
    const unstated = operationsOf(doc)
      .filter(({ op }) => !Array.isArray(op.security))
      .map(({ where }) => where);
    expect(unstated).toEqual([]);
    for (const { where, op } of operationsOf(doc)) {
      if (op.security.length > 0) expect(op.security, where).toEqual([{ bearer: [] }]);
    }
  });

  it("keeps the outcome rule in the published JSON Schema, as a JSON Schema validator reads it", async () => {
    const schema = await (await fetch(`${server.url}/v1/schemas/cairn.receipt/v1`)).json();
    const validate = new Ajv2020({ strict: false }).compile(schema as Json);
    const receipt = (outcome: Json) => ({
      changed: "Nightly export retries failed uploads",
      affected: "Finance analysts",
      before: "One failure left the export empty.",
      after: "Failures are retried three times.",
      evidence: [],
      outcome,
      remaining: [],
      learned: "Uploads fail during maintenance.",
    });
    const verdicts = [
      { status: "measured", summary: "no empty export in 7 days" },
      { status: "measured" },
      { status: "pending", measure_at: "2026-12-08" },
      { status: "pending" },
      { status: "not_applicable" },
    ].map((outcome) => validate(receipt(outcome)));
    expect(verdicts).toEqual([true, false, true, false, true]);
  });

  it("answers a public route without a token, as its empty security says", async () => {
    for (const path of ["/v1/keys", "/v1/schemas/cairn.receipt/v1"]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    }
  });
});

describe("a client generated from it (openapi-typescript + openapi-fetch)", () => {
  let client: GeneratedClient | undefined;
  afterAll(async () => client?.dispose());

  it("compiles under TypeScript 5 and creates, finds and reads back a receipt against the server", async () => {
    expect(await typescriptVersion()).toMatch(/^5\./);
    client = await generateClient(`${server.url}/openapi.json`);
    const marker = `generated-client-${process.pid}`;
    const run = await client.run({ CAIRN_URL: doc.servers[0].url, CAIRN_TOKEN: server.adminToken, CAIRN_MARKER: marker });
    expect(run.code, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim());

    expect(seen.created.id).toMatch(/^art_/);
    expect(seen.created.checksum).toMatch(/^sha256:/);
    expect(seen.found).toEqual([seen.created.id]);
    expect(seen.read).toMatchObject({ id: seen.created.id, checksum: seen.created.checksum });
    expect(seen.read.body).toContain("Generated a typed Cairn client from its OpenAPI document");
    expect(seen.refused).toMatchObject({ status: 422, code: "validation_failed", fields: ["outcome.measure_at"] });
    expect(seen.refused.drop).toMatch(/^drp_/);

    // The server, asked directly, holds what the client says it created.
    const stored = await fetch(`${server.url}/v1/artifacts/${seen.created.id}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(((await stored.json()) as Json).checksum).toBe(seen.created.checksum);
  });
});
