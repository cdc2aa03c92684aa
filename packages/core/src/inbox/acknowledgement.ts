import { z } from "zod";

/**
 * A person's "I saw it": its own immutable record beside the receipt (which never
 * changes). Kept free of other area imports, because the artifact object embeds it.
 */
export const Acknowledgement = z
  .object({
    by: z
      .object({
        user: z.string().describe("The user who acknowledged."),
        token_name: z.string().describe("Name of the human token they used, e.g. laptop."),
      })
      .describe("Server-derived: who acknowledged, from the bearer token."),
    at: z.string().describe("ISO 8601 time of the acknowledgement."),
    note: z.string().nullable().describe("What they said, after secret redaction; null when they said nothing."),
  })
  .meta({ id: "Acknowledgement", description: "A person saying they saw what a receipt asked of them." });
export type Acknowledgement = z.infer<typeof Acknowledgement>;

export interface AcknowledgementRow {
  artifact_id: string;
  user_name: string;
  token_name: string;
  note: string | null;
  created_at: Date | string;
}

export const toAcknowledgement = (r: Omit<AcknowledgementRow, "artifact_id">): Acknowledgement => ({
  by: { user: r.user_name, token_name: r.token_name },
  at: new Date(r.created_at).toISOString(),
  note: r.note,
});
