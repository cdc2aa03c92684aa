import { createHash } from "node:crypto";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { exampleOf, type FieldRow, fieldRows, type Json } from "./schema-view.js";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** Description text as people write it: escaped, with `code` spans shown as code rather than as backticks. */
const prose = (text: unknown) => raw(escapeHtml(String(text ?? "")).replace(/`([^`]+)`/g, "<code>$1</code>"));

const anchor = (op: Json, method: string, path: string) => String(op.operationId ?? `${method}-${path}`).replace(/[^a-z0-9_-]/gi, "-");

const CSS = `:root{color-scheme:light dark;--bg:#fdfdfc;--fg:#1c1d1f;--muted:#56595f;--line:#dcdde0;--panel:#f2f3f5;--accent:#0b57d0;--code:#eceef1}
@media (prefers-color-scheme:dark){:root{--bg:#131416;--fg:#e8e9eb;--muted:#a7abb2;--line:#34373c;--panel:#1d1f22;--accent:#8ab4f8;--code:#26292d}}
*{box-sizing:border-box}body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg);margin:0;overflow-wrap:anywhere}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 4rem}a{color:var(--accent)}h1{font-size:1.7rem;margin:.2rem 0}h2{font-size:1.25rem;margin:0 0 .4rem}
h3{font-size:1rem;margin:1.1rem 0 .3rem;color:var(--muted)}code,pre{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);border-radius:4px}
code{padding:.05rem .3rem}pre{padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}pre code{padding:0;background:none}
.note{background:var(--panel);border-left:4px solid var(--accent);padding:.6rem .9rem;border-radius:4px}
nav ul{list-style:none;padding:0;margin:.2rem 0 .8rem;columns:2 18rem}nav li{margin:.1rem 0;break-inside:avoid}nav h2{font-size:1rem;margin:.8rem 0 0}
section.op{border-top:1px solid var(--line);padding-top:1.2rem;margin-top:1.6rem}
.m{display:inline-block;min-width:3.6rem;font-size:.75rem;font-weight:700;text-align:center;border:1px solid currentColor;border-radius:4px;padding:0 .3rem;margin-right:.3rem}
.row{border-bottom:1px solid var(--line);padding:.35rem 0}.row .t{color:var(--muted);font-size:.9em}.row .r{font-size:.85em;color:var(--muted)}
.req{font-size:.75rem;font-weight:600}details{margin:.4rem 0}summary{cursor:pointer;color:var(--accent)}
[data-depth="1"]{padding-left:1rem}[data-depth="2"]{padding-left:2rem}[data-depth="3"],[data-depth="4"]{padding-left:3rem}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}`;

/** The page's one stylesheet is inline; its hash lets the CSP allow exactly it and nothing else. */
export const DOCS_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(CSS).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function fields(rows: FieldRow[]): Html | string {
  if (rows.length === 0) return html`<p>No fields.</p>`;
  return html`${rows.map(
    (r) => html`<div class="row" data-depth="${r.depth}">
      <div><code>${r.name}</code> <span class="t">${r.type}</span> ${r.required ? html`<span class="req">required</span>` : ""}</div>
      ${r.rules.length > 0 ? html`<div class="r">${r.rules.join(" · ")}</div>` : ""}
      ${r.description ? html`<div>${prose(r.description)}</div>` : ""}
    </div>`,
  )}`;
}

const json = (value: unknown) => html`<pre><code>${JSON.stringify(value, null, 2)}</code></pre>`;

function operation(doc: Json, path: string, method: string, op: Json): Html {
  const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined;
  const params = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.name !== "x-cairn-surface");
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>);
  const [okCode, ok] = responses.find(([code]) => code.startsWith("2")) ?? [];
  const okContent = Object.values((ok?.content ?? {}) as Record<string, Json>)[0];
  const secured = Array.isArray(op.security) && op.security.length > 0;
  return html`<section class="op" id="${anchor(op, method, path)}">
    <h2><span class="m">${method.toUpperCase()}</span><code>${path}</code></h2>
    <p>${prose(op.summary)}</p>
    ${secured ? "" : html`<p><strong>Public:</strong> no token needed.</p>`}
    ${
      params.length > 0
        ? html`<h3>Parameters</h3>${params.map(
            (
              p,
            ) => html`<div class="row"><div><code>${String(p.name)}</code> <span class="t">${String(p.in)}</span> ${p.required ? html`<span class="req">required</span>` : ""}</div>
          <div>${prose((p.schema as Json | undefined)?.description ?? p.description)}</div></div>`,
          )}`
        : ""
    }
    ${body ? html`<h3>Request body</h3>${fields(fieldRows(doc, body.schema))}<details><summary>Example request</summary>${json(exampleOf(doc, body.schema))}</details>` : ""}
    <h3>Responses</h3>
    ${responses.map(([code, r]) => html`<div class="row"><code>${code}</code> ${prose(r.description)}</div>`)}
    ${
      okContent
        ? html`<details><summary>${okCode} response fields</summary>${fields(fieldRows(doc, okContent.schema))}</details>
    <details><summary>Example ${okCode} response</summary>${json(exampleOf(doc, okContent.schema))}</details>`
        : ""
    }
  </section>`;
}

/** A self-contained reference generated from the OpenAPI document: no scripts, no external assets, one hashed stylesheet. */
export function renderDocsPage(doc: Json): Html {
  const info = (doc.info ?? {}) as Json;
  const ops = Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op, tag: String((op.tags as string[] | undefined)?.[0] ?? "Other") })),
  );
  const tags = [...new Set(ops.map((o) => o.tag))];
  const errorSchema = ((doc.components as Json | undefined)?.schemas as Json | undefined)?.Error;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${String(info.title)} API reference</title><style>${raw(CSS)}</style></head>
<body><main>
<nav aria-label="Cairn"><a href="/">← Back to Cairn</a> (receipts, inbox, doctor)</nav>
<header><h1>${String(info.title)} API <small>${String(info.version)}</small></h1><p>${prose(info.description)}</p></header>
<p class="note"><strong>Authentication.</strong> Send <code>Authorization: Bearer &lt;token&gt;</code> on every <code>/v1</code> route except the public ones marked below. <code>cairn serve</code> writes the first admin token to <code>$CAIRN_HOME/credentials</code>; give each agent its own token (<code>cairn token create NAME --kind agent</code>). Bodies are JSON (<code>Content-Type: application/json</code>).</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1) and the receipt's JSON Schema at <a href="/v1/schemas/cairn.receipt/v1">/v1/schemas/cairn.receipt/v1</a>.</p>
<nav aria-label="Endpoints"><h2 id="contents">Contents</h2>
${tags.map(
  (tag) =>
    html`<h2>${tag}</h2><ul>${ops
      .filter((o) => o.tag === tag)
      .map((o) => html`<li><a href="#${anchor(o.op, o.method, o.path)}"><span class="m">${o.method.toUpperCase()}</span>${o.path}</a></li>`)}</ul>`,
)}
<ul><li><a href="#errors">Errors</a></li></ul></nav>
${ops.map((o) => operation(doc, o.path, o.method, o.op))}
<section class="op" id="errors"><h2>Errors</h2><p>Every error, on every surface, has this shape. A refused receipt carries the drop receipt it left.</p>
${errorSchema ? fields(fieldRows(doc, errorSchema)) : ""}</section>
</main></body></html>`;
}
