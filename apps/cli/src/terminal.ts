/**
 * Stored text is written by agents that may go wrong: printed raw, ESC/OSC sequences could
 * set the clipboard (OSC 52), retitle the window or redraw lines, CR could overwrite a line
 * with a fake "Receipt verified", and bidi overrides reorder what a person reads. Human
 * output therefore shows every such character as a visible escape (`\x1b`, `\u202e`);
 * newlines and tabs stay. `--json` output is never passed through here.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
