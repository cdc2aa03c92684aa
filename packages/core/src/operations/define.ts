import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { Store } from "../store/port.js";
import { type CairnError, type CairnErrorCode, ERROR_CODES, validationFailed } from "../errors.js";
import { type Permission, tokenGrants } from "../identity/permissions.js";
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
  /** Validates raw input and runs the verb. Callers go through `invokeOperation`, which checks the permission first. */
  invoke(ctx: ServiceContext, raw: unknown): Promise<z.output<O>>;
  /** For input a surface could not read: records the refusal where the operation keeps a trace (receipt_create). */
  refuseUnreadable?(ctx: ServiceContext, error: CairnError): Promise<CairnError>;
  /** For an operation that is public (no token, e.g. the signing keys): runs it with the store alone. */
  runPublic?(store: Store): Promise<z.output<O>>;
  /**
   * The verb re-checks a cached caller itself, in the statement that writes (ADR 0027):
   * `invokeOperation` does not re-read the principal first. Only receipt_create.
   */
  checksCallerInWrite: boolean;
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
  refuseUnreadable?(ctx: ServiceContext, error: CairnError): Promise<CairnError>;
  runPublic?(store: Store): Promise<z.output<O>>;
  /** Default: false (see Operation.checksCallerInWrite). */
  checksCallerInWrite?: boolean;
  /** Default: shown on every surface (see NotOn). */
  notOn?: NotOn;
}

/** A read defaults to the `read` permission; a write must say what it needs. */
type Access = { mutates: false; permission?: Permission } | { mutates: true; permission: Permission };

/** `run` gets input parsed against `input`; `runRaw` gets it as sent and validates it itself (receipt_create's gates). */
type Body<I extends z.ZodType, O extends z.ZodType> =
  | { run(ctx: ServiceContext, input: z.output<I>): Promise<z.output<O>> | z.output<O>; runRaw?: never }
  | { runRaw(ctx: ServiceContext, raw: unknown): Promise<z.output<O>>; run?: never };

export type OperationSpec<I extends z.ZodType, O extends z.ZodType> = SpecBase<I, O> & Access & Body<I, O>;

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec<I, O>): Operation<I, O> {
  const permission = spec.permission ?? "read";
  const codes = new Set<CairnErrorCode>([...COMMON_ERRORS, ...(spec.errors ?? [])]);
  if (!tokenGrants("agent", permission)) codes.add("forbidden");
  const { runRaw, run } = spec;
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
    checksCallerInWrite: spec.checksCallerInWrite ?? false,
    notOn: spec.notOn ?? {},
    invoke: runRaw
      ? (ctx, raw) => runRaw(ctx, raw)
      : async (ctx, raw) => {
          const parsed = parseWith(spec.input, raw ?? {});
          if (!parsed.ok) throw validationFailed(parsed.issues);
          return (run as NonNullable<typeof run>)(ctx, parsed.value);
        },
    ...(spec.refuseUnreadable && { refuseUnreadable: spec.refuseUnreadable }),
    ...(spec.runPublic && { runPublic: spec.runPublic }),
  };
}
