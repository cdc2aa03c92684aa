import MarkdownIt from "markdown-it";

/**
 * Bodies are user text. Raw HTML is off (escaped, never passed through), and
 * markdown-it's link validation already refuses javascript:, vbscript:, file: and
 * non-image data: URLs. Links open without a referrer so share tokens never leak.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet("rel", "noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export const renderMarkdown = (source: string): string => md.render(source);
