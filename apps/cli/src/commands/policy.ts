import type { FieldInfo, Policy } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Command } from "commander";
import { CliFailure } from "../failure.js";
import { fieldLines } from "../format.js";
import { fieldOf, type OperationMeta, operationMeta } from "../metadata.js";
import type { Printer } from "../output.js";
import { type CliCommand, examplesHelp, operationCommand } from "./define.js";
import { optionFor } from "./fields.js";
import { fail, JSON_HELP, runWithClient } from "./run.js";

function printPolicy(policy: Policy, printer: Printer): void {
  printer.out(`Policy of ${policy.owner}`);
  const { owner: _owner, ...settings } = policy;
  for (const line of fieldLines(Object.entries(settings).map(([k, v]) => [k, String(v)] as const))) printer.out(line);
}

export const policyGetCommand = operationCommand("policy_get", {
  words: ["policy", "get"],
  options: [{ field: "owner", flags: "--owner <owner>" }],
  examples: ["cairn policy get", "cairn policy get --owner team:platform --json"],
  human: printPolicy,
});

/** The policy's settable fields, from core's schema: every key, its kind and its rule. */
const policyFields = (op: OperationMeta): FieldInfo[] => op.fields.filter((f) => f.name !== "owner");

/** The CLI's words for a value, by the field's kind: booleans and whole numbers as typed; the server validates the rest. */
function parseValue(field: FieldInfo, value: string): unknown {
  if (field.kind === "boolean") {
    if (value === "true" || value === "on") return true;
    if (value === "false" || value === "off") return false;
    throw CliFailure.usage(`${field.name} takes true or false (got ${JSON.stringify(value)}).`);
  }
  if (field.kind === "number") {
    if (!/^\d+$/.test(value)) throw CliFailure.usage(`${field.name} takes a whole number (got ${JSON.stringify(value)}).`);
    return Number(value);
  }
  return value;
}

/** `cairn policy set KEY VALUE [--owner O]`: one field; the others keep their values. */
export const policySetCommand: CliCommand<"policy_set"> = {
  operation: "policy_set",
  words: ["policy", "set"],
  // One field per command line: `cairn policy set KEY VALUE [--owner O]`.
  async commandLine(input) {
    if (!isPlainObject(input)) return null;
    const { owner, ...patch } = input;
    const [entry, ...more] = Object.entries(patch);
    if (!entry || more.length > 0 || (owner !== undefined && typeof owner !== "string")) return null;
    return { args: ["policy", "set", entry[0], String(entry[1]), ...(owner ? ["--owner", owner] : []), "--json"] };
  },
  async register(parent: Command, ctx) {
    const op = await operationMeta("policy_set");
    const fields = policyFields(op);
    const keys = fields.map((f) => f.name);
    const valueHelp = fields.map((f) => `${f.name}: ${f.choices?.join("|") ?? (f.kind === "boolean" ? "true|false" : f.kind)} — ${f.description}`);
    const cmd = parent
      .command("set")
      .description(op.description)
      .argument("<KEY>", `One of ${keys.join(", ")}.`)
      .argument("<VALUE>", valueHelp.join("\n"))
      .addOption(optionFor(fieldOf(op, "owner"), "--owner <owner>"))
      .option("--json", JSON_HELP)
      .addHelpText("after", examplesHelp(["cairn policy set require_evidence true", "cairn policy set secrets block --owner team:platform"]));
    cmd.action(async (key: string, value: string, opts: { owner?: string; json?: boolean }) => {
      const json = opts.json === true;
      let input: Record<string, unknown>;
      try {
        const field = fields.find((f) => f.name === key);
        if (!field) throw CliFailure.usage(`unknown policy key ${JSON.stringify(key)}; use one of ${keys.join(", ")}.`);
        input = { [key]: parseValue(field, value), ...(opts.owner !== undefined && { owner: opts.owner }) };
      } catch (err) {
        fail(ctx, err, json);
        return;
      }
      await runWithClient(ctx, json, async (client, printer) => {
        const answer = await client.call("policy_set", input);
        if (json) printer.out(answer.text);
        else printPolicy(answer.data, printer);
      });
    });
  },
};
