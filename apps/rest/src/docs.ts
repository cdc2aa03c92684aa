import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

type Json = Record<string, unknown>;

/** The page's one inline style; the CSP allows exactly it by hash. */
export const DOCS_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.m{font-size:.8em;background:#eef;padding:.1rem .4rem;border-radius:4px}section{margin-bottom:2.5rem}code{font-size:.95em}`;

/** Follows a local $ref (#/components/schemas/X) one hop. */
function deref(doc: Json, schema: unknown): Json {
  const ref = (schema as Json | undefined)?.$ref;
  if (typeof ref !== "string") return (schema as Json) ?? {};
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<Json>((node, key) => (node?.[key] as Json) ?? {}, doc);
}

function typeOf(doc: Json, schema: unknown): string {
  const s = deref(doc, schema);
  if (Array.isArray(s.enum)) return s.enum.map(String).join(" | ");
  if (s.type === "array") return `${typeOf(doc, s.items)}[]`;
  if (Array.isArray(s.anyOf)) return s.anyOf.map((x) => typeOf(doc, x)).join(" | ");
  const ref = (schema as Json | undefined)?.$ref;
  if (typeof ref === "string") return ref.split("/").pop() ?? "object";
  return typeof s.type === "string" ? s.type : "object";
}

function fieldsTable(doc: Json, schema: unknown): HtmlEscapedString | Promise<HtmlEscapedString> | string {
  const s = deref(doc, schema);
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  if (Object.keys(props).length === 0) return "";
  return html`<table>
    <tr><th>field</th><th>type</th><th></th><th>description</th></tr>
    ${Object.entries(props).map(
      ([name, p]) =>
        html`<tr><td><code>${name}</code></td><td>${typeOf(doc, p)}</td><td>${required.has(name) ? "required" : ""}</td><td>${String(deref(doc, p).description ?? "")}</td></tr>`,
    )}
  </table>`;
}

/** A self-contained reference page generated from the OpenAPI document: no scripts, no external assets. */
export function renderDocsPage(doc: Json): HtmlEscapedString | Promise<HtmlEscapedString> {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const info = (doc.info ?? {}) as Json;
  const sections = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined;
      const params = (op.parameters as Json[] | undefined) ?? [];
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>);
      return html`<section>
        <h2><span class="m">${method.toUpperCase()}</span> <code>${path}</code></h2>
        <p>${String(op.summary ?? "")}</p>
        ${params.length > 0
          ? html`<h3>Parameters</h3><table>${params.map(
              (p) => html`<tr><td><code>${String(p.name)}</code></td><td>${String(p.in)}</td><td>${String((p.schema as Json | undefined)?.description ?? p.description ?? "")}</td></tr>`,
            )}</table>`
          : ""}
        ${body ? html`<h3>Body</h3>${fieldsTable(doc, body.schema)}` : ""}
        <h3>Responses</h3>
        <ul>${responses.map(([code, r]) => html`<li><code>${code}</code> ${String(r.description ?? "")}</li>`)}</ul>
      </section>`;
    }),
  );
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${String(info.title)} API</title>
<style>${raw(DOCS_STYLE)}</style></head>
<body><h1>${String(info.title)} API <small>${String(info.version)}</small></h1>
<p>${String(info.description ?? "")}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Schemas: <a href="/v1/schemas">/v1/schemas</a>.</p>
${sections}
</body></html>`;
}
