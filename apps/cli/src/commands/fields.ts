import type { FieldInfo } from "@cairn/core";
import { InvalidArgumentError, Option } from "commander";

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number.");
  return Number(value);
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidArgumentError("must be JSON.");
  }
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** The default spelling of a field as a flag: `--field-name <field_name>`, or `--field-name` for a boolean. */
export const flagsOf = (info: FieldInfo) =>
  info.kind === "boolean" ? `--${info.name.replaceAll("_", "-")}` : `--${info.name.replaceAll("_", "-")} <${info.name}>`;

/**
 * A commander option for an input field (see core's `fieldsOf`), with the schema's own
 * description (so `--help` and the OpenAPI document say the same thing) and its choices
 * for enums. Lists repeat the flag; objects and unions take JSON.
 */
export function optionFor(info: FieldInfo, flags?: string, extra = ""): Option {
  const option = new Option(flags ?? flagsOf(info), `${info.description}${extra}${info.kind === "json" ? " (JSON)" : ""}`);
  if (info.choices) option.choices(info.choices);
  if (info.kind === "number") option.argParser(parseInteger);
  if (info.kind === "list") option.argParser(collect);
  if (info.kind === "json") option.argParser(parseJson);
  if (info.required && info.kind !== "boolean") option.makeOptionMandatory();
  return option;
}
