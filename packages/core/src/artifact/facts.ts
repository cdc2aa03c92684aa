import { readableInstant } from "../dates.js";
import { humanActionText } from "../inbox/format.js";
import { ageOf } from "../inbox/internal.js";
import { askLines, askViewOf } from "../view/decision.js";
import { lifetimeText, receiptNowLines } from "../view/state.js";
import { artifactProvenanceLine } from "./provenance-line.js";
import type { Artifact } from "./schemas.js";

/**
 * An artifact's facts as labelled lines, in the order a reader wants them: the view
 * model a text surface prints above the body (the CLI's `read`), so no surface names
 * the fields or words the labels itself. A receipt's current state — assignee,
 * acknowledgements, measured in / followed by, lifetime — comes first (SPEC §24): the
 * same facts as its card, since the stored body keeps the words it was created with.
 */
export function artifactFacts(a: Artifact, now: Date = new Date()): Array<readonly [label: string, value: string]> {
  const current = receiptNowLines(a, now);
  const ask = askViewOf(a, now);
  return [
    ["id", a.id],
    ...(current ?? []),
    ...(ask ? askLines(ask).map((line) => ["ask", line] as const) : []),
    ["url", a.url],
    ["owner", a.owner],
    ["claim", artifactProvenanceLine(a)],
    ["tags", a.tags.join(", ") || "-"],
    ["created", readableInstant(a.created_at)],
    ...(current ? [] : [["lifetime", lifetimeText(a)] as const]),
    ["checksum", a.checksum],
  ];
}

/**
 * An artifact in a list, as two lines: id, age, title and tags; then, indented, what a
 * receipt asks of a person and the share link — so two receipts with one title still
 * tell apart. The body is not needed (search may leave it out).
 */
export function artifactListLine(a: Omit<Artifact, "body">, now: Date = new Date()): string {
  const tags = a.tags.length > 0 ? `  [${a.tags.join(", ")}]` : "";
  const asks = a.metadata ? `${humanActionText(a.metadata).text}  ` : "";
  return `${a.id}  ${ageOf(a.created_at, now).text} ago  ${a.title}${tags}\n    ${asks}${a.url}`;
}
