import { humanActionText } from "../inbox/format.js";
import { ageOf } from "../inbox/internal.js";
import { artifactProvenanceLine } from "./provenance-line.js";
import type { Artifact } from "./schemas.js";

/**
 * An artifact's facts as labelled lines, in the order a reader wants them: the view
 * model a text surface prints above the body (the CLI's `read`), so no surface names
 * the fields or words the labels itself.
 */
export function artifactFacts(a: Artifact): Array<readonly [label: string, value: string]> {
  return [
    ["id", a.id],
    ["url", a.url],
    ["owner", a.owner],
    ["claim", artifactProvenanceLine(a)],
    ["tags", a.tags.join(", ") || "-"],
    ["created", a.created_at],
    ["expires", a.retained || a.expires_at === null ? "never (retained)" : a.expires_at],
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
