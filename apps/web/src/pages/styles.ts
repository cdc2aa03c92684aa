/**
 * The design system (ADR 0019): a few custom properties, system fonts, one stylesheet
 * served from /assets/cairn.css so the CSP can forbid inline style. Light and dark come
 * from prefers-color-scheme; every text/background pair below meets WCAG AA (4.5:1),
 * checked in the browser tests. Long unbroken tokens (checksums, ids) wrap.
 */
const TOKENS = `
:root{color-scheme:light dark;
--bg:#ffffff;--surface:#f5f7f9;--fg:#1a1f24;--muted:#505a64;--line:#d3d9df;--accent:#0a58a8;--focus:#0a58a8;
--act-bg:#fdf0c4;--act-fg:#3f2d00;--act-line:#d9b640;--calm-bg:#e3f3e8;--calm-fg:#154a26;--calm-line:#9fcfae;
--warn-bg:#fdecec;--warn-fg:#8c1d18;--warn-line:#e8a5a1;--ok-fg:#1c5e2f;--fail-fg:#9b1c15;--chip-due:#8a3b00;
--radius:8px;--space:1rem;--font:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
--mono:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",monospace}
@media (prefers-color-scheme:dark){:root{
--bg:#11151a;--surface:#1a2027;--fg:#e7ecf0;--muted:#a9b4bf;--line:#38424c;--accent:#8cc4ff;--focus:#8cc4ff;
--act-bg:#3a2c05;--act-fg:#ffe49a;--act-line:#8a6d1c;--calm-bg:#13301e;--calm-fg:#b4ecc6;--calm-line:#2e6b44;
--warn-bg:#3a1514;--warn-fg:#ffc2bd;--warn-line:#8a3a35;--ok-fg:#9be0b0;--fail-fg:#ffb1aa;--chip-due:#ffc48a}}
`;

const BASE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 var(--font);overflow-wrap:anywhere}
a{color:var(--accent);text-underline-offset:.15em}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:3px}
.wrap{max-width:56rem;margin:0 auto;padding:0 var(--space)}
.skip{position:absolute;left:-999px;top:.5rem;background:var(--bg);color:var(--accent);padding:.4rem .7rem;z-index:2}
.skip:focus{left:.5rem}
header.site{border-bottom:1px solid var(--line);background:var(--surface)}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.2rem;padding-top:.6rem;padding-bottom:.6rem}
.brand{font-weight:700;color:var(--fg);text-decoration:none;letter-spacing:.02em}
nav ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;margin:0;padding:0}
nav a{text-decoration:none;padding:.2rem 0}
nav a[aria-current=page]{color:var(--fg);font-weight:600;border-bottom:2px solid var(--fg)}
.who{margin-left:auto;display:flex;align-items:center;gap:.6rem;color:var(--muted);font-size:.9rem}
main.wrap{padding-top:1.5rem;padding-bottom:3rem}
footer.site{border-top:1px solid var(--line);color:var(--muted);font-size:.85rem;padding:1rem 0 2rem}
footer.site a{color:var(--muted)}
h1{font-size:1.55rem;line-height:1.25;margin:.2rem 0 1rem}
h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
.label{display:block;font-size:.78rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .25rem}
.muted,.meta{color:var(--muted)}
.meta{font-size:.9rem}
code,pre{font-family:var(--mono);font-size:.9em}
:not(pre)>code{background:var(--surface);border:1px solid var(--line);border-radius:4px;padding:0 .25em}
pre{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:.8rem 1rem;white-space:pre-wrap;overflow-wrap:anywhere}
.text{white-space:pre-wrap}
button,input,select{font:inherit;color:inherit}
input,select{background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:0 .6rem;height:2.6rem;min-width:0;width:100%}
button{background:var(--accent);color:var(--bg);border:1px solid var(--accent);border-radius:6px;padding:0 1rem;min-height:2.6rem;font-weight:600;cursor:pointer}
button.quiet{background:transparent;color:var(--accent);padding:0 .6rem;min-height:2rem}
label{font-weight:600;font-size:.9rem}
`;

const COMPONENTS = `
.assertion{color:var(--muted);font-size:.92rem;margin:0 0 .3rem}
.card{border:1px solid var(--line);border-radius:var(--radius);padding:1.2rem 1.3rem;margin:0 0 1.5rem;display:grid;gap:1.1rem}
.card .ask{display:grid;gap:.5rem;justify-items:start;border:1px solid var(--line);border-radius:var(--radius);padding:.8rem 1rem}.card .ask>*{margin:0}.card .ask .options{padding-left:1.2rem}.card .ask label{display:block;font-weight:600}.card .ask textarea{display:block;width:min(100%,36rem);min-height:3.5rem}.card .ask>div:not(.buttons){width:100%}.card .ask .buttons{display:flex;flex-wrap:wrap;gap:.5rem}.card .ask .decision{font-size:1.05rem}
.card>*,.card p,.card ul{margin:0}
.card .meta{margin-top:.4rem}
.tldr{font-size:1.2rem;font-weight:600;line-height:1.4}
.chip{display:block;border:1px solid var(--act-line);background:var(--act-bg);color:var(--act-fg);border-radius:var(--radius);padding:.6rem .9rem;font-weight:600}
.chip.calm{border-color:var(--calm-line);background:var(--calm-bg);color:var(--calm-fg);font-weight:500}
.chip code{background:transparent;border-color:currentColor}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.pair>div{background:var(--surface);border-radius:var(--radius);padding:.7rem .9rem}
.warning{border:1px solid var(--warn-line);background:var(--warn-bg);color:var(--warn-fg);border-radius:var(--radius);padding:.5rem .8rem;font-weight:600}
.card ul,.plain{margin:0;padding-left:1.2rem}
.card .acks{font-size:.92rem;color:var(--muted);margin:-.4rem 0 0;list-style:none;padding:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;min-width:0}
.body{border-top:1px solid var(--line);padding-top:.5rem}
.body h1,.body h2,.body h3,.body h4{font-size:1.05rem;margin:1.2rem 0 .4rem}
section.body>h2{font-size:1.1rem}
.filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin:0 0 1.2rem}
.filters div{display:grid;gap:.2rem;min-width:0;flex:1 1 9rem}
.filters select{min-width:min(10rem,100%)}
.filters div:first-child{flex:2 1 14rem}
.filters div:last-child{flex:0 0 auto}
.rows{list-style:none;margin:0;padding:0;border-top:1px solid var(--line)}
.rows>li{border-bottom:1px solid var(--line);padding:.8rem 0;display:grid;gap:.35rem}
.rows .title{font-weight:600;font-size:1.05rem}
.tags{display:flex;flex-wrap:wrap;gap:.3rem .8rem;font-size:.88rem;color:var(--muted)}
.pill{display:inline-block;border-radius:6px;padding:.05rem .5rem;font-size:.88rem;border:1px solid var(--act-line);background:var(--act-bg);color:var(--act-fg);font-weight:600}
.pill.calm{border-color:var(--calm-line);background:var(--calm-bg);color:var(--calm-fg);font-weight:500}
.due{color:var(--chip-due);font-weight:600}
.pager{display:flex;gap:1.5rem;margin-top:1rem}
.status{display:inline-block;min-width:3.2rem;font-weight:700;text-transform:uppercase;font-size:.8rem;letter-spacing:.05em}
.status.ok{color:var(--ok-fg)}.status.warn{color:var(--chip-due)}.status.fail{color:var(--fail-fg)}
.attempts{list-style:none;margin:0;padding:0;display:grid;gap:.15rem;font-size:.88rem;color:var(--muted)}
.checks{list-style:none;padding:0;margin:0;display:grid;gap:.8rem}
.checks>li{border:1px solid var(--line);border-radius:var(--radius);padding:.7rem .9rem}
.checks p{margin:.15rem 0}
.timeline{list-style:none;padding:0;margin:0;display:grid;gap:.6rem}
.timeline>li{display:grid;gap:.2rem}
.bar{overflow:hidden;height:.5rem;background:var(--surface);border-radius:4px;border:1px solid var(--line)}
.bar>span{display:block;height:100%;background:var(--accent);border-radius:3px;min-width:3px}
.pill.bad{border-color:var(--warn-line);background:var(--warn-bg);color:var(--warn-fg)}
dl.attrs{font-size:.88rem;gap:.15rem .8rem;margin:.2rem 0 .3rem;grid-template-columns:minmax(6rem,max-content) minmax(0,1fr)}
dl.attrs dt code{border:0;background:transparent;padding:0}
dl.attrs dd pre{margin:.3rem 0 0;max-height:24rem;overflow:auto}
dl.attrs summary,details.resource>summary{cursor:pointer;color:var(--muted)}
details.resource{margin:0 0 1rem}
.totals{border:1px solid var(--line);border-radius:var(--radius);padding:.8rem 1rem;display:grid;gap:.5rem;margin:0 0 1rem}
.totals p{margin:0}
.produced li{margin:.2rem 0}
ol.tree{list-style:none;margin:0;padding:0;display:grid;gap:.45rem}
ol.tree ol.tree{margin:.4rem 0 0 .3rem;padding-left:.7rem;border-left:2px solid var(--line)}
ol.tree>li{display:grid;gap:.25rem;min-width:0}
ol.tree .span{display:grid;gap:.2rem;min-width:0}
details.children>summary,details.attrs-fold>summary{cursor:pointer;color:var(--muted);font-size:.88rem}
.tabs{display:flex;gap:1rem;list-style:none;padding:0;margin:0 0 1rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}.actions form{margin:0}
form.invite{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:1rem 0 .3rem}form.invite label{display:grid;gap:.2rem}
.ack{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.ack div{display:grid;gap:.2rem;flex:1 1 14rem}
.ack div:last-child{flex:0 0 auto}
.notice{border:1px solid var(--calm-line);background:var(--calm-bg);color:var(--calm-fg);border-radius:var(--radius);padding:.6rem .9rem;font-weight:600;margin:0 0 1rem}
.chip-state{display:block;font-weight:500;margin-top:.2rem}
.assignee{color:var(--muted)}.assignee strong{color:var(--fg)}
.mark{font-weight:600}.mark.overdue{color:var(--chip-due)}.mark.measured,.measured{color:var(--ok-fg)}
.when,.tags time{white-space:nowrap}
.acked{color:var(--ok-fg)}
.rows .ask{font-weight:600;color:var(--act-fg);overflow-wrap:anywhere}.rows .ask[data-state="decided"]{color:var(--ok-fg);font-weight:500}.rows .ask[data-state="expired"]{color:var(--muted);font-weight:500}
.actions .share{display:grid;gap:.3rem;margin:0 0 .9rem}
.actions .copy{display:flex;gap:.5rem}.actions .copy button{flex:none;white-space:nowrap}
.actions .forms{display:flex;flex-wrap:wrap;gap:.8rem 2rem;align-items:end}
.actions .forms form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.assign div{display:grid;gap:.2rem}
.assign select{min-width:12rem}
.body table{border-collapse:collapse;margin:.6rem 0;display:block;overflow-x:auto;max-width:100%}
.body th,.body td{border:1px solid var(--line);padding:.35rem .7rem;text-align:left;vertical-align:top}
.body th{background:var(--surface)}
.switches{border:0;padding:0;margin:0 0 .8rem;display:flex;flex-wrap:wrap;gap:.4rem 1.4rem}.switches legend{font-weight:600;margin:0 0 .4rem}
.switches label{display:flex;gap:.4rem;align-items:center;font-weight:500}.switches input{width:1.2rem;height:1.2rem;flex:none;margin:0}
.channel-forms{display:flex;gap:.5rem;flex-wrap:wrap}
.signin{max-width:28rem}
.signin form{display:grid;gap:.6rem}
.error{color:var(--warn-fg);background:var(--warn-bg);border:1px solid var(--warn-line);border-radius:var(--radius);padding:.5rem .8rem}
@media (max-width:44rem){.pair{grid-template-columns:1fr}dl.attrs{grid-template-columns:minmax(0,1fr);gap:0}dl.attrs dd{margin-bottom:.35rem}}
`;

/** Timeline bars are placed by class (the CSP allows no inline style): offsets and widths in whole percents. */
const TIMELINE =
  Array.from({ length: 101 }, (_, i) => `.o${i}{margin-left:${i}%}.w${i}{width:${i}%}`).join("") +
  Array.from({ length: 9 }, (_, i) => `.d${i}{padding-left:${i * 1.2}rem}`).join("");

/** Comments on the artifact page (SPEC §34): one bordered item each, the agent's marked, the form full width. */
const COMMENTS = `
.comment-list{list-style:none;padding:0;margin:0 0 1rem}
.comment{border:1px solid var(--line);border-radius:var(--radius);padding:.6rem .9rem;margin:0 0 .6rem}
.comment.deleted{border-style:dashed}
.comment-head{margin:0 0 .3rem}
.comment .body>:first-child{margin-top:0}
.comment form{margin-top:.4rem}
.agent-label{display:inline-block;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.05em;border:1px solid var(--line);border-radius:4px;padding:0 .35em;margin-right:.3em;color:var(--muted)}
.comment-form label{display:block;margin-bottom:.3rem}
.comment-form textarea{display:block;width:100%;box-sizing:border-box;background:var(--bg);color:var(--fg);border:1px solid var(--muted);border-radius:6px;padding:.5rem .6rem;margin-bottom:.5rem;font:inherit}
`;

export const STYLESHEET = `${TOKENS}${BASE}${COMPONENTS}${TIMELINE}${COMMENTS}\n`;

/** Three stacked stones: the site icon, served from our own origin (the CSP allows no data: URLs). */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><g fill="#5b6b7a"><ellipse cx="16" cy="26" rx="12" ry="4.5"/><ellipse cx="16" cy="17.5" rx="8.5" ry="3.8"/><ellipse cx="16" cy="10" rx="5.5" ry="3.2"/></g></svg>`;
