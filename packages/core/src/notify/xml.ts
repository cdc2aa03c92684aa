import { escapeHtml } from "./render.js";

/**
 * What XML 1.0 (§2.2, `Char`) does not allow anywhere in a document, even escaped: C0
 * controls other than tab, LF and CR, U+FFFE and U+FFFF, and surrogates that are not part
 * of a pair. One such character makes a strict reader refuse the whole document.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Stored text as XML character data or an attribute value: forbidden characters removed, markup escaped. */
export const xmlText = (s: string) => escapeHtml(s.replace(NOT_XML, ""));
