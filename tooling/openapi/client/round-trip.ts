/**
 * What an integrator writes against a client generated from Cairn's OpenAPI document
 * (openapi-typescript types + openapi-fetch): create a receipt, find it, read it back,
 * and read a refusal. Compiled with the generated `cairn-api.ts` beside it; every
 * `@ts-expect-error` below must be an error, or the types would not be checking anything.
 * Prints what it saw as one JSON line.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./cairn-api.js";

type ReceiptInput = components["schemas"]["ReceiptCreateInput"];

const { CAIRN_URL: baseUrl, CAIRN_TOKEN: token, CAIRN_MARKER: marker } = process.env;
if (!baseUrl || !token || !marker) throw new Error("Set CAIRN_URL, CAIRN_TOKEN and CAIRN_MARKER.");

const cairn = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const receipt: ReceiptInput = {
  changed: "Generated a typed Cairn client from its OpenAPI document",
  affected: "Integrators who build on the REST API",
  before: "Clients were written by hand against the reference page.",
  after: "The client is generated from /openapi.json and type-checked.",
  evidence: [{ label: "Generated client", url: `${baseUrl}/openapi.json` }],
  outcome: { status: "pending", measure_at: nextWeek },
  remaining: [{ item: "Publish the generated client", owner: "integrations" }],
  learned: "The document's outcome rule reaches the generated types.",
  tags: [marker],
};

// @ts-expect-error a pending outcome must say when it will be measured (the outcome rule, in the types)
const unmeasurable: ReceiptInput["outcome"] = { status: "pending" };
// @ts-expect-error a receipt has no such field
const unknownField: ReceiptInput = { ...receipt, colour: "blue" };
void unmeasurable;
void unknownField;

const created = await cairn.POST("/v1/receipts", { body: receipt });
if (!created.data) throw new Error(`create answered ${created.response.status}: ${JSON.stringify(created.error)}`);
// @ts-expect-error a created artifact has no such field
void created.data.colour;

const found = await cairn.GET("/v1/artifacts", { params: { query: { tag: marker, q: "typed client" } } });
if (!found.data) throw new Error(`search answered ${found.response.status}: ${JSON.stringify(found.error)}`);

const read = await cairn.GET("/v1/artifacts/{id}", { params: { path: { id: created.data.id } } });
if (!read.data) throw new Error(`read answered ${read.response.status}: ${JSON.stringify(read.error)}`);

// A refusal is typed too: the error envelope with its issues and the drop receipt it left.
const refused = await cairn.POST("/v1/receipts", {
  body: { ...receipt, outcome: { status: "pending" } } as unknown as ReceiptInput,
});
const refusal = refused.error?.error;

console.log(
  JSON.stringify({
    created: { id: created.data.id, checksum: created.data.checksum, url: created.data.url },
    found: found.data.items.map((item) => item.id),
    read: { id: read.data.id, checksum: read.data.checksum, body: read.data.body },
    refused: { status: refused.response.status, code: refusal?.code, fields: refusal?.issues?.map((i) => i.field), drop: refusal?.drop?.id },
  }),
);
