import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { Store } from "../store/port.js";
import { type CairnError, validationFailed } from "../errors.js";
import { parseWith } from "../validation.js";

/**
 * One entry per verb. REST routes, MCP tools and CLI commands are generated from this
 * table, so an operation reaches every surface at once and the surfaces cannot drift.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  /** Shown as OpenAPI summary, MCP tool description and CLI help. */
  description: string;
  /** The documented input; `invoke` validates raw input against it (receipt_create through its gates). */
  input: I;
  output: O;
  /** Whether the operation changes state (MCP hints, HTTP method defaults). */
  mutates: boolean;
  invoke(ctx: ServiceContext, raw: unknown): Promise<z.output<O>>;
  /** For input a surface could not read: records the refusal where the operation keeps a trace (receipt_create). */
  refuseUnreadable?(ctx: ServiceContext, error: CairnError): Promise<CairnError>;
  /** For an operation that is public (no token, e.g. the signing keys): runs it with the store alone. */
  runPublic?(store: Store): Promise<z.output<O>>;
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(spec: {
  name: string;
  description: string;
  input: I;
  output: O;
  mutates: boolean;
  run(ctx: ServiceContext, input: z.output<I>): Promise<z.output<O>> | z.output<O>;
}): Operation<I, O> {
  return {
    name: spec.name,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    mutates: spec.mutates,
    async invoke(ctx, raw) {
      const parsed = parseWith(spec.input, raw ?? {});
      if (!parsed.ok) throw validationFailed(parsed.issues);
      return spec.run(ctx, parsed.value);
    },
  };
}

