import { InvalidArgumentError, Option } from "commander";

/** The parts of a zod 4 schema the CLI reads to describe a field (no zod import needed). */
interface SchemaLike {
  description?: string;
  _zod: { def: { type: string; innerType?: SchemaLike; entries?: Record<string, string> } };
}

const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "readonly", "nonoptional"]);
const OMITTABLE = new Set(["optional", "default", "prefault"]);

/** The field's schema without optional/default wrappers, and the first description found on the way. */
export function describeField(
  input: unknown,
  field: string,
): { type: string; description: string; optional: boolean; choices?: string[] } {
  let schema = (input as { shape: Record<string, SchemaLike> }).shape[field];
  if (!schema) throw new Error(`the operation's input has no field ${field}`);
  let description = schema.description;
  let optional = false;
  while (WRAPPERS.has(schema._zod.def.type) && schema._zod.def.innerType) {
    optional ||= OMITTABLE.has(schema._zod.def.type);
    schema = schema._zod.def.innerType;
    description ??= schema.description;
  }
  const { type, entries } = schema._zod.def;
  return { type, description: description ?? "", optional, ...(entries && { choices: Object.values(entries) }) };
}

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number.");
  return Number(value);
}

/**
 * A commander option for an input field, with the schema's own description (so `--help`
 * and the OpenAPI document say the same thing) and its choices for enums.
 */
export function optionFor(input: unknown, field: string, flags?: string, extra = ""): Option {
  const { type, description, optional, choices } = describeField(input, field);
  const long = flags ?? (type === "boolean" ? `--${field.replaceAll("_", "-")}` : `--${field.replaceAll("_", "-")} <${field}>`);
  const option = new Option(long, `${description}${extra}`);
  if (choices) option.choices(choices);
  if (type === "number") option.argParser(parseInteger);
  if (!optional && type !== "boolean") option.makeOptionMandatory();
  return option;
}
