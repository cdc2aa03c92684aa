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

/** One line per artifact in a list: id, day, title and tags. */
export function artifactListLine(a: Artifact): string {
  const tags = a.tags.length > 0 ? `  [${a.tags.join(", ")}]` : "";
  return `${a.id}  ${a.created_at.slice(0, 10)}  ${a.title}${tags}`;
}
