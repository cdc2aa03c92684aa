/**
 * A whole NDJSON stream as the one page the reference answers. Scenarios that stream
 * stay under one page, so the stream and the page hold the same items.
 */
export function ndjsonPage(text: string): { items: unknown[]; next_cursor: null } {
  return {
    items: text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as unknown),
    next_cursor: null,
  };
}
