/** A command line `main` runs without the program: `cairn read ID`, with or without `--json`. */
export interface QuickLine {
  id: string;
  json: boolean;
}

/**
 * `cairn read ID` is the command people and scripts run most, and most of its time is
 * starting up: commander and every command's definition cost more than the request
 * (docs/adr/0067). Only these exact spellings are quick; anything else (help, another
 * flag, an empty or dash-led ID) is parsed by the program as before, so the two paths
 * cannot disagree about what a line means. The parity test runs each quick line both ways.
 */
export function quickLineOf(argv: readonly string[]): QuickLine | null {
  if (argv[0] !== "read") return null;
  const rest = argv.slice(1);
  const json = rest.includes("--json");
  const words = rest.filter((a) => a !== "--json");
  if (rest.length !== words.length + (json ? 1 : 0) || words.length !== 1) return null;
  const id = words[0] as string;
  return id === "" || id.startsWith("-") ? null : { id, json };
}
