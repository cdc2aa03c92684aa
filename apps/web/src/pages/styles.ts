/** The only stylesheet, served from /assets/cairn.css so the CSP can forbid inline styles. */
export const STYLESHEET = `
:root{color-scheme:light dark;--muted:#666;--line:#ddd;--chip:#fff3c4;--chip-none:#e6f4ea;--warn:#b3261e}
body{font:16px/1.55 system-ui,-apple-system,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}
header.assertion{color:var(--muted);font-size:.9rem;margin-bottom:.5rem}
h1{font-size:1.5rem;margin:.2rem 0 1rem}
.card{border:1px solid var(--line);border-radius:10px;padding:1.2rem 1.4rem;margin-bottom:2rem}
.tldr{font-size:1.15rem;font-weight:600;margin:0 0 1rem;white-space:pre-wrap}
.chip{display:inline-block;border-radius:999px;padding:.35rem .9rem;background:var(--chip);font-weight:600;margin-bottom:1rem;white-space:pre-wrap}
.chip.nothing{background:var(--chip-none)}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.pair>div,.block{white-space:pre-wrap}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:1.1rem 0 .3rem}
.warning{color:var(--warn);font-weight:600}
ul{margin:.2rem 0;padding-left:1.2rem}
.links a{margin-right:1rem}
.meta{color:var(--muted);font-size:.85rem}
article.body{border-top:1px solid var(--line);padding-top:1rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:40rem){.pair{grid-template-columns:1fr}}
`;
