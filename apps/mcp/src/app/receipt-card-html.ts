import { RECEIPT_PAGE_LABELS } from "@cairn/core";

/** The MCP Apps bridge revision the card speaks (ext-apps' `ui/initialize`). */
export const APP_BRIDGE_VERSION = "2026-01-26";

/** JSON that is safe inside a <script> element (no `</script>`, no HTML comment openers). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** Text as HTML element content. */
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const STYLE = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--chip:#fff4d6;--chip-fg:#5c3b00;--calm:#e8f3ec;--calm-fg:#1a4d2e;--warn:#fde8e8;--warn-fg:#8a1c1c;--link:#0a58ca;--btn:#f3f4f6}
:root[data-theme=dark]{--bg:#0f1419;--fg:#e6edf3;--muted:#a9b4bf;--line:#3d444d;--chip:#3d2e00;--chip-fg:#ffe3a3;--calm:#12301f;--calm-fg:#b7e4c7;--warn:#3b1414;--warn-fg:#ffc9c9;--link:#8ab4ff;--btn:#1f2630}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#0f1419;--fg:#e6edf3;--muted:#a9b4bf;--line:#3d444d;--chip:#3d2e00;--chip-fg:#ffe3a3;--calm:#12301f;--calm-fg:#b7e4c7;--warn:#3b1414;--warn-fg:#ffc9c9;--link:#8ab4ff;--btn:#1f2630}}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:600px;min-width:0;padding:14px 16px}
.prov{margin:0 0 6px;color:var(--muted);font-size:13px}
h1{margin:0 0 10px;font-size:18px;line-height:1.3;overflow-wrap:anywhere}
.tldr{margin:0 0 10px;font-weight:600;overflow-wrap:anywhere}
.chip{display:inline-block;margin:0 0 10px;padding:6px 10px;border-radius:8px;background:var(--chip);color:var(--chip-fg);font-weight:600;overflow-wrap:anywhere}
.chip.calm{background:var(--calm);color:var(--calm-fg)}
.label{display:block;margin-top:10px;color:var(--muted);font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em}
.text{margin:2px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.pair{display:grid;grid-template-columns:1fr;gap:0 16px}
@media (min-width:440px){.pair{grid-template-columns:1fr 1fr}}
ul{margin:4px 0 0;padding-left:20px}
li{overflow-wrap:anywhere}
a{color:var(--link)}
.warning{margin:4px 0 0;padding:6px 10px;border-radius:6px;background:var(--warn);color:var(--warn-fg);font-weight:600}
.muted{color:var(--muted)}
.links{display:flex;flex-wrap:wrap;gap:8px;margin-top:14px;padding-top:12px;border-top:1px solid var(--line)}
.links button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid var(--line);background:var(--btn);color:var(--fg);cursor:pointer}
.links button:focus-visible,a:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.hint{margin:8px 0 0;color:var(--muted);font-size:13px}
.ask{margin:8px 0 10px;padding:4px 10px 8px;border:1px solid var(--line);border-radius:8px}
.ask .links{margin-top:6px;padding-top:0;border-top:0}
.ask .label{margin-top:4px}
.ask p{margin:8px 0 0}
.error{padding:8px 10px;border-radius:6px;background:var(--warn);color:var(--warn-fg)}
`;

/**
 * The script: the MCP Apps bridge (JSON-RPC over postMessage to the host) and the card,
 * drawn with DOM calls only (textContent, never innerHTML), so every text is escaped.
 * It renders the core render view the tool result carries in `_meta["cairn.dev/card"]`
 * for the artifact in its `structuredContent`, in the card's order.
 */
const SCRIPT = `
"use strict";
var WORDS = __WORDS__;
var BRIDGE = __BRIDGE__;
var pending = {};
var nextId = 1;
function send(message) { window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
function request(method, params) {
  var id = nextId++;
  send({ id: id, method: method, params: params });
  return new Promise(function (resolve) { pending[id] = resolve; });
}
function notify(method, params) { send({ method: method, params: params || {} }); }
function applyTheme(context) {
  if (context && (context.theme === "light" || context.theme === "dark")) document.documentElement.dataset.theme = context.theme;
}
function el(tag, attrs, children) {
  var node = document.createElement(tag);
  for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
  (children || []).forEach(function (child) {
    if (child === null || child === undefined) return;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  });
  return node;
}
function openLink(url) { request("ui/open-link", { url: url }); }
function link(href, text, field) {
  var a = el("a", { href: href, rel: "noopener noreferrer", target: "_blank", "data-field": field }, [text]);
  a.addEventListener("click", function (event) { event.preventDefault(); openLink(href); });
  return a;
}
function labelled(part) {
  return el("div", {}, [el("span", { class: "label" }, [part.label]), el("p", { class: "text", "data-field": part.field }, [part.text])]);
}
// The ask (SPEC §32): each option opens the receipt's page, where the signed-in person answers; the host's model cannot.
function ask(a, page) {
  if (a.decision !== null) {
    var done = [el("p", { "data-part": "decision" }, [el("strong", {}, [a.decision])])];
    if (a.comment) done.push(el("p", { class: "text", "data-part": "decision-comment" }, [a.comment.label + ": " + a.comment.text]));
    return el("div", { class: "ask", "data-part": "ask", "data-state": a.state }, done);
  }
  var options = el("div", { class: "links", "data-part": "options" }, a.options.items.map(function (o) {
    var b = el("button", { type: "button", "data-option": o.id }, [o.label]);
    b.addEventListener("click", function () { openLink(page); });
    return b;
  }));
  var open = [el("span", { class: "label" }, [a.options.label]), options];
  if (a.answer_by) open.push(el("p", { class: "muted", "data-part": "answer_by" }, [a.answer_by.label + " " + a.answer_by.text]));
  return el("div", { class: "ask", "data-part": "ask", "data-state": "open" }, open);
}
function card(view) {
  var c = view.card;
  var nodes = [];
  nodes.push(el("p", { class: "prov", "data-part": "header" }, [c.header]));
  if (view.title !== c.tldr.text) nodes.push(el("h1", { "data-field": "title" }, [view.title]));
  nodes.push(el(view.title === c.tldr.text ? "h1" : "p", { class: "tldr", "data-field": c.tldr.field }, [c.tldr.text]));
  var chip = el("p", { class: c.action.waiting ? "chip" : "chip calm", "data-part": "chip" }, [c.action.label + ": ", el("span", { "data-field": c.action.field }, [c.action.text])]);
  nodes.push(chip);
  if (c.action.acknowledged) nodes.push(el("p", { class: "muted", "data-part": "acknowledged" }, [c.action.acknowledged]));
  if (c.assignee) nodes.push(el("p", { class: "muted", "data-field": "assignee" }, [c.assignee.label + " " + c.assignee.user]));
  if (c.ask) nodes.push(ask(c.ask, view.page));
  nodes.push(labelled(c.affected));
  nodes.push(el("div", { class: "pair" }, [labelled(c.before), labelled(c.after)]));
  var evidence = [el("span", { class: "label" }, [c.evidence.label])];
  if (c.evidence.empty !== null) evidence.push(el("p", { class: "warning", "data-field": c.evidence.field, "data-empty": "true" }, [c.evidence.empty]));
  else evidence.push(el("ul", { "data-field": c.evidence.field }, c.evidence.links.map(function (e) {
    var open = e.open ? [" · ", link(new URL(e.open.href, view.page).href, e.open.label, e.field + ".open")] : [];
    return el("li", {}, [link(e.url, e.label, e.field)].concat(open));
  })));
  if (c.evidence.note) evidence.push(el("p", { class: "text muted", "data-field": c.evidence.note.field }, [c.evidence.note.text]));
  nodes.push(el("div", {}, evidence));
  var o = c.outcome;
  var status = [el("strong", { "data-field": o.status.field, "data-value": o.status.value }, [o.status.text])];
  if (o.measure_at) status.push(" · " + o.measure_at.label.toLowerCase() + " ", el("span", { "data-field": o.measure_at.field }, [o.measure_at.text]));
  if (o.mark) status.push(" · ", el("span", { "data-part": "mark" }, [o.mark]));
  var outcome = [el("span", { class: "label" }, [o.label]), el("p", { class: "text" }, status)];
  if (o.summary) outcome.push(el("p", { class: "text", "data-field": o.summary.field }, [o.summary.text]));
  nodes.push(el("div", {}, outcome));
  var r = c.remaining;
  nodes.push(el("div", {}, [el("span", { class: "label" }, [r.label]), r.empty !== null
    ? el("p", { class: "text", "data-field": r.field, "data-empty": "true" }, [r.empty])
    : el("ul", { "data-field": r.field }, r.items.map(function (i) {
        return el("li", { "data-field": i.field }, [el("span", { "data-part": "item" }, [i.item]), " — ", el("span", { "data-part": "owner" }, [i.owner])]);
      }))]));
  nodes.push(labelled(c.learned));
  nodes.push(el("div", { class: "links", "data-part": "links" }, view.links.map(function (l) {
    var b = el("button", { type: "button", "data-action": l.action }, [l.label]);
    b.addEventListener("click", function () { openLink(l.href); });
    return b;
  })));
  nodes.push(el("p", { class: "hint" }, [view.hint]));
  return nodes;
}
function show(nodes) {
  var main = document.getElementById("card");
  main.replaceChildren.apply(main, nodes);
  var size = function () { notify("ui/notifications/size-changed", { height: Math.ceil(document.documentElement.scrollHeight) }); };
  requestAnimationFrame(size);
}
function render(result) {
  var meta = (result && result._meta) || {};
  var view = meta["cairn.dev/card"];
  var artifact = result && result.structuredContent;
  if (result && result.isError) {
    var error = meta["cairn.dev/error"] || {};
    return show([el("p", { class: "error", role: "alert" }, [String(error.message || "The tool call failed.")])]);
  }
  if (view && view.card && (!artifact || artifact.id === view.id)) return show(card(view));
  return show([el("h1", {}, [String((artifact && artifact.title) || "")]), el("p", { class: "muted" }, [WORDS.notReceipt])]);
}
window.addEventListener("message", function (event) {
  if (event.source !== window.parent) return;
  var m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.id !== undefined && !m.method) {
    var resolve = pending[m.id];
    delete pending[m.id];
    if (resolve) resolve(m.result);
    return;
  }
  if (m.method === "ui/notifications/tool-result") render(m.params);
  else if (m.method === "ui/notifications/host-context-changed") applyTheme(m.params);
});
request("ui/initialize", {
  protocolVersion: BRIDGE,
  appInfo: { name: "cairn-receipt-card", version: "1" },
  appCapabilities: {}
}).then(function (result) {
  applyTheme(result && result.hostContext);
  notify("ui/notifications/initialized");
});
`;

/**
 * The receipt card as an MCP App (`ui://cairn/receipt-card`): one self-contained HTML
 * document — its style and script inline, no external script, style, font or image, so
 * its CSP names no domain. The words it shows before a result arrives are core's.
 */
export function receiptCardHtml(): string {
  const words = { waiting: RECEIPT_PAGE_LABELS.waiting, notReceipt: RECEIPT_PAGE_LABELS.notReceipt };
  const script = SCRIPT.replace("__WORDS__", scriptJson(words)).replace("__BRIDGE__", scriptJson(APP_BRIDGE_VERSION));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cairn receipt</title>
<style>${STYLE}</style>
</head>
<body>
<main id="card" aria-live="polite"><p class="muted">${escapeHtml(RECEIPT_PAGE_LABELS.waiting)}</p></main>
<script>${script}</script>
</body>
</html>
`;
}
