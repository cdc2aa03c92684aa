import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

/**
 * User markdown becomes HTML in two steps. markdown-it runs with raw HTML off (any tag in
 * the text is escaped, never passed through) and its link validation refuses
 * javascript:, vbscript:, file: and non-image data: URLs. Its output is then sanitised
 * against a short allowlist, so a future markdown-it option or plugin cannot widen what
 * reaches the page. Links carry no referrer, so share tokens never leak.
 */
// linkify: bare URLs become links through markdown-it's own linkify-it (the same validation and sanitising as written links).
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet("rel", "noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "em",
    "strong",
    "s",
    "ul",
    "ol",
    "li",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  // No style attributes: the CSP forbids inline style (table alignment is dropped).
  allowedAttributes: { a: ["href", "title", "rel"], ol: ["start"] },
  allowedSchemes: ["https", "http", "mailto"],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
};

/** A markdown document (an artifact body, a receipt's details) as safe HTML. */
export const renderMarkdown = (source: string): string => sanitizeHtml(md.render(source), ALLOWED);

/** One field's text as inline markdown: `code` becomes code rather than showing backticks. */
export const renderInline = (source: string): string => sanitizeHtml(md.renderInline(source), ALLOWED);
