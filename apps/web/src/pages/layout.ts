import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Every page: no scripts, one same-origin stylesheet, and nothing indexed. */
export function layout(title: string, content: Markup): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · Cairn</title>
<link rel="stylesheet" href="/assets/cairn.css">
</head>
<body>
${content}
</body>
</html>`;
}

/** Strict: no script at all, styles only from our own origin, no framing, no form posts elsewhere. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
