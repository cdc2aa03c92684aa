import { z } from "zod";
import { CALENDAR_YEARS_REASON, calendarError, isWithinCalendarYears } from "../dates.js";
import { OwnerRef } from "../identity/names.js";
import { PAGE_FIELDS } from "../paging.js";
import { isIsoDateOrDateTime } from "../receipt/schemas.js";
import { SURFACES } from "../surfaces.js";
import { storableString } from "../text.js";
import { DROP_CATEGORIES } from "./classification.js";

/** Surfacing looks at a trailing window; findings age out on their own. */
export const DROP_WINDOW_DAYS = 7;
export const MAX_DROP_WINDOW_DAYS = 90;
/** Newest drops kept per owner, and the count above which older ones are trimmed. */
export const DROPS_KEPT = 200;
export const DROPS_HIGH_WATER = 400;
/** Where a drop stands (SPEC §24): only an `open` one still warns. */
export const DROP_STATES = ["open", "resolved", "dismissed"] as const;
export type DropState = (typeof DROP_STATES)[number];

/** Shown instead of a title the secret scanner flagged. */
export const WITHHELD_TITLE = "[withheld: the secret scanner flagged this title]";

export const DropActor = z
  .object({
    id: z.string().describe("Id of the token that submitted."),
    name: z.string().describe("Name of that token, e.g. claude."),
    kind: z.enum(["human", "agent"]).describe("Whether the token is a person's or an agent's."),
  })
  .describe("Server-derived: the token that made the submission.");

export const DropReceipt = z
  .object({
    id: z.string().describe("Drop receipt id."),
    owner: z.string().describe("The owner the submission targeted (when the caller may act for it), else the caller's user."),
    category: z.enum(DROP_CATEGORIES).describe("Why the submission was turned away."),
    recoverable: z.boolean().describe("Whether the submitter can change the outcome (false for duplicates: the gate working as designed)."),
    cause: z.string().describe("Plain-language cause."),
    next_action: z.string().describe("What to do about it."),
    fields: z.array(z.string()).describe("Dotted paths of the failing fields. Never their values."),
    title: z
      .string()
      .nullable()
      .describe("The submission's title; a marker when the secret scanner flagged it; null when it had none or the title was itself a failing field."),
    title_withheld: z.boolean().describe("True when the title was replaced by a marker because the secret scanner flagged it."),
    surface: z.enum(SURFACES).describe("Which surface the submission came through."),
    actor: DropActor,
    model: z.string().nullable().describe("Client-asserted model name, or null."),
    created_at: z.string().describe("ISO 8601 time of the decision."),
    state: z
      .enum(DROP_STATES)
      .describe(
        "`open`; `resolved` once the same token has since stored an accepted receipt for the same owner (the submitter fixed its input); `dismissed` once a person dismissed it. Only `open` drops count toward doctor's Drops warning.",
      ),
  })
  .meta({ id: "DropReceipt", description: "The persisted trace of a refused receipt submission: what and why, never the content." });
export type DropReceipt = z.infer<typeof DropReceipt>;

export const DropsListInput = z.strictObject({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_DROP_WINDOW_DAYS)
    .optional()
    .describe(`Trailing window in days, 1-${MAX_DROP_WINDOW_DAYS}; default ${DROP_WINDOW_DAYS}.`),
  owner: OwnerRef.optional().describe("Only drops of this owner (yourself or a team you belong to). Default: all of them."),
  ...PAGE_FIELDS,
});

export const DropList = z
  .object({
    items: z.array(DropReceipt),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "DropList", description: "Drop receipts in the window, newest first." });

export const DropsDismissInput = z.strictObject({
  before: storableString()
    .max(64)
    .refine(isIsoDateOrDateTime, { error: calendarError("must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)"), abort: true })
    .refine(isWithinCalendarYears, CALENDAR_YEARS_REASON)
    .optional()
    .describe("Dismiss the drops made before this ISO 8601 date or date-time with a zone (default: now), e.g. the time of the newest one you looked at."),
  owner: OwnerRef.optional().describe("Only drops of this owner (yourself or a team you belong to). Default: all of them."),
});

export const DropsDismissed = z
  .object({
    dismissed: z.number().int().describe("How many open drops were dismissed now (drops already dismissed are left as they were)."),
    before: z.string().describe("ISO 8601 time: open drops made before it were dismissed."),
  })
  .meta({ id: "DropsDismissed", description: "What a dismissal cleared from doctor's Drops warning." });
