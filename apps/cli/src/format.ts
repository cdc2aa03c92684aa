import type { Artifact } from "@cairn/core";
import { artifactFacts, artifactListLine, CONFIRMATIONS, readableInstant } from "./light.js";
import type { Printer } from "./output.js";

const DAY_MS = 86_400_000;

/** The reminder every stored receipt prints: it goes away unless someone keeps it. */
export function expiryLine(a: Pick<Artifact, "id" | "expires_at" | "retained">, now = Date.now()): string {
  if (a.retained || a.expires_at === null) return CONFIRMATIONS.retained();
  const left = Date.parse(a.expires_at) - now;
  if (left < DAY_MS) {
    const minutes = Math.max(1, Math.round(left / 60_000));
    const span = minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.round(minutes / 60)} hours`;
    return `Expires in ${span} (${readableInstant(a.expires_at)}) unless retained: cairn retain ${a.id}`;
  }
  const days = Math.max(0, Math.round(left / DAY_MS));
  return `Expires in ${days} day${days === 1 ? "" : "s"} (${a.expires_at.slice(0, 10)}) unless retained: cairn retain ${a.id}`;
}

export function fieldLines(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
}

/** `cairn read`: core's facts of the artifact — for a receipt, what is true of it now first — then the body as stored. */
export function printArtifact(a: Artifact, printer: Printer): void {
  printer.out(a.title);
  for (const line of fieldLines(artifactFacts(a))) printer.out(line);
  printer.out("");
  printer.out(a.body);
}

/** One line per artifact in a list (core's wording). */
export const listLine = artifactListLine;

/** An accepted receipt's warning, on stderr so `--json`-less scripts still read only the facts on stdout. */
export const warningLine = (w: { field: string; reason: string }): string => `warning: ${w.field} ${w.reason}`;
