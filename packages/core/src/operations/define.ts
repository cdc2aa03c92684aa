import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { type CairnError, type CairnErrorCode, ERROR_CODES, validationFailed } from "../errors.js";
import { type Permission, requirePermission, tokenGrants } from "../identity/permissions.js";
import { checkedContext } from "../identity/principal-cache.js";
import type { Store } from "../store/port.js";
import { parseWith } from "../validation.js";
import type { OperationHeader } from "./headers.js";

/** The surfaces that may leave an operation out. REST offers every one: the API is the whole contract. */
export const OPTIONAL_SURFACES = ["mcp", "cli"] as const;
export type OptionalSurface = (typeof OPTIONAL_SURFACES)[number];

/**
 * Which surfaces do not show an operation, each with the reason (`{ mcp: "administration" }`).
 * An operation is on every surface unless it names one here: MCP's tool list and the CLI's
 * commands read this, and nothing else decides it, so a new operation reaches every
 * surface without an edit in an adapter. The reason is what a successor would ask for.
 */
export type NotOn = Readonly<Partial<Record<OptionalSurface, string>>>;

/** Whether `surface` shows the operation (see NotOn). */
export const isOfferedOn = (op: Pick<Operation, "notOn">, surface: OptionalSurface): boolean => op.notOn[surface] === undefined;

/**
 * One verb, as every surface needs it. REST routes, MCP tools and CLI commands are
 * generated from the registry of these (keyed by name), so an operation reaches every
 * surface at once and the surfaces cannot drift.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Short human-facing name (MCP tool title). */
  title: string;
  /** Shown as OpenAPI summary, MCP tool description and CLI help. */
  description: string;
  /** The documented input; `invoke` validates raw input against it (receipt_create through its gates). */
  input: I;
  output: O;
  /** Whether the operation changes state (MCP readOnlyHint, HTTP method defaults). */
  mutates: boolean;
  /** Repeating the same call has no further effect (MCP idempotentHint). */
  idempotent: boolean;
  /** It can remove or revoke something (MCP destructiveHint). */
  destructive: boolean;
  /** What the caller's token must hold (SPEC §18); core checks it before the verb runs. */
  permission: Permission;
  /** Every error code the operation can answer with, in ERROR_CODES order (REST documents each status). */
  errors: readonly CairnErrorCode[];
  /** Request headers the operation reads. */
  headers: readonly OperationHeader[];
  /**
   * The one way into the verb: checks the caller (a cached one re-read, 401 when its token
   * is gone), the token's permission (403 naming it), validates the raw input and runs.
   * `raw` may be an UnreadableInput: what a surface could not read is refused here too.
   */
  invoke(ctx: ServiceContext, raw: unknown): Promise<z.output<O>>;
  /** For an operation that is public (no token, e.g. the signing keys): runs it with the store alone. */
  runPublic?(store: Store): Promise<z.output<O>>;
  /** The surfaces that leave this operation out, with why (NotOn); empty: every surface shows it. */
  notOn: NotOn;
}

/** Codes any operation can answer with: bad input, no valid token, our own faults, the database away. */
export const COMMON_ERRORS = ["validation_failed", "unauthenticated", "unavailable", "internal"] as const satisfies readonly CairnErrorCode[];

interface SpecBase<I extends z.ZodType, O extends z.ZodType> {
  /** Default: the name in words (`team_member_add` → "Team member add"). */
  title?: string;
  description: string;
  input: I;
  output: O;
  /** Default: true for reads, false for writes. */
  idempotent?: boolean;
  /** Default: false. */
  destructive?: boolean;
  /** Codes beyond COMMON_ERRORS (and `forbidden`, added when agent tokens lack the permission). */
  errors?: readonly CairnErrorCode[];
  headers?: readonly OperationHeader[];
  runPublic?(store: Store): Promise<z.output<O>>;
  /** Default: shown on every surface (see NotOn). */
  notOn?: NotOn;
}

/** A read defaults to the `read` permission; a write must say what it needs. */
type Access = { mutates: false; permission?: Permission } | { mutates: true; permission: Permission };

/**
 * `run` gets a checked caller and input parsed against `input`. A verb that owns its whole
 * way in gives `invoke` instead (receipt_create: its gates read the raw input, so every
 * refusal is classified and leaves a drop, and its one write re-checks a cached caller).
 */
type Body<I extends z.ZodType, O extends z.ZodType> =
  | { run(ctx: ServiceContext, input: z.output<I>): Promise<z.output<O>> | z.output<O>; invoke?: never }
  | { invoke(ctx: ServiceContext, raw: unknown): Promise<z.output<O>>; run?: never };

/** Input a surface could not read (malformed JSON, over the size limit), handed to `invoke` as the input it is. */
export class UnreadableInput {
  constructor(readonly error: CairnError) {}
}

export type OperationSpec<I extends z.ZodType, O extends z.ZodType> = SpecBase<I, O> & Access & Body<I, O>;

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec<I, O>): Operation<I, O> {
  const permission = spec.permission ?? "read";
  const codes = new Set<CairnErrorCode>([...COMMON_ERRORS, ...(spec.errors ?? [])]);
  if (!tokenGrants("agent", permission)) codes.add("forbidden");
  const { invoke, run } = spec;
  return {
    title: spec.title ?? "",
    description: spec.description,
    input: spec.input,
    output: spec.output,
    mutates: spec.mutates,
    idempotent: spec.idempotent ?? !spec.mutates,
    destructive: spec.destructive ?? false,
    permission,
    errors: ERROR_CODES.filter((code) => codes.has(code)),
    headers: spec.headers ?? [],
    notOn: spec.notOn ?? {},
    invoke:
      invoke ??
      (async (ctx, raw) => {
        const checked = await checkedContext(ctx);
        requirePermission(checked.principal, permission);
        if (raw instanceof UnreadableInput) throw raw.error;
        const parsed = parseWith(spec.input, raw ?? {});
        if (!parsed.ok) throw validationFailed(parsed.issues);
        return (run as NonNullable<typeof run>)(checked, parsed.value);
      }),
    ...(spec.runPublic && { runPublic: spec.runPublic }),
  };
}
