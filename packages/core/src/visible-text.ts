/**
 * Stored text is written by agents that may go wrong: shown raw, ESC/OSC sequences could
 * set a terminal's clipboard (OSC 52), retitle the window or redraw lines, CR could
 * overwrite a line with a fake "Receipt verified", and bidi overrides and isolates reorder
 * what a person reads (a link that reads as another). Wherever a person reads stored text
 * outside a page that escapes it — the CLI's human output, every notification — each such
 * character is shown as a visible escape (`\x1b`, `\u202e`); newlines and tabs stay.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function visibleText(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
