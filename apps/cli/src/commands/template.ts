import type { ReceiptCreateInput } from "@cairn/core/receipt";

type Receipt = typeof import("@cairn/core/receipt");
interface Described {
  description?: string;
  unwrap?: () => Described;
}

/** A field's description, looking through `.optional()` wrappers that do not carry it. */
const descriptionOf = (field: Described): string => field.description ?? (field.unwrap ? descriptionOf(field.unwrap()) : "");

/** Folds a description into `# ` comment lines of at most `width` characters. */
function commentLines(text: string, width = 88): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > width && line !== "#") {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  if (line !== "#") lines.push(line);
  return lines;
}

/**
 * A starting receipt to fill in: every field of the create input in schema order, each
 * under its own description (taken from the schema, so it cannot drift), the optional
 * ones the template leaves out commented out. Every answer is core's `<fill in: …>`
 * placeholder: sent unedited, it is refused, naming each field still to fill (SPEC §24).
 */
export async function receiptTemplate(receipt: Receipt, format: "yaml" | "json", now = new Date()): Promise<string> {
  const example: Record<string, unknown> = receipt.receiptTemplateValues(now);
  if (format === "json") return `${JSON.stringify(example, null, 2)}\n`;
  const { stringify } = await import("yaml");
  const out = [
    `# A ${receipt.RECEIPT_SCHEMA_ID} receipt. Replace every <fill in: …> with your answer, then:`,
    "#   cairn receipt --dry-run --from receipt.yaml   (check it; nothing is sent)",
    "#   cairn receipt --from receipt.yaml",
    "",
  ];
  const shape = receipt.ReceiptCreateInput.shape as Record<keyof ReceiptCreateInput, Described>;
  for (const [key, field] of Object.entries(shape)) {
    if (key === "schema") continue; // defaults to the only receipt schema; nobody needs to write it
    out.push(...commentLines(descriptionOf(field)));
    const yaml = stringify({ [key]: example[key] ?? `<${key}>` }, { lineWidth: 0 }).trimEnd();
    out.push(...(key in example ? [yaml] : yaml.split("\n").map((l) => `# ${l}`)), "");
  }
  return out.join("\n");
}
