import type { Artifact } from "../artifact/schemas.js";
import { OUTCOME_LABELS, type OutcomeStatus } from "../receipt/schemas.js";
import { CARD_LABELS, needsHuman, receiptMetadataOf } from "./card.js";

/** One row of a list of artifacts (the web's bin): what a person scans before opening one. */
export interface ArtifactSummaryView {
  id: string;
  title: string;
  owner: string;
  created_at: string;
  /** "3 days ago". */
  age: string;
  /** Null for an artifact that is not a receipt. */
  action: { label: string; text: string; needed: boolean } | null;
  outcome: {
    status: OutcomeStatus;
    text: string;
    /** The measurement date, when the receipt set one. */
    measure_at: string | null;
    /** A pending measurement whose date has come (a date-only value is due from the start of that day, UTC). */
    due: boolean;
    /** All of it as one line: "Pending · measure at 2026-12-07 · due". */
    line: string;
  } | null;
  tags: string[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

/** How long ago, in the largest whole unit: "just now", "5 minutes ago", "3 days ago". */
export function ageOf(iso: string, now: Date): string {
  const ms = now.getTime() - Date.parse(iso);
  if (ms < MINUTE) return "just now";
  if (ms < HOUR) return plural(Math.floor(ms / MINUTE), "minute");
  if (ms < DAY) return plural(Math.floor(ms / HOUR), "hour");
  return plural(Math.floor(ms / DAY), "day");
}

/** Whether a measure_at (date or date-time) has come; a date alone counts from 00:00 UTC. */
export function isDue(measureAt: string, now: Date): boolean {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(measureAt) ? Date.parse(`${measureAt}T00:00:00Z`) : Date.parse(measureAt);
  return at <= now.getTime();
}

export function artifactSummaryOf(artifact: Pick<Artifact, "id" | "title" | "owner" | "created_at" | "metadata" | "tags">, now: Date): ArtifactSummaryView {
  const m = receiptMetadataOf(artifact);
  const measureAt = m?.outcome.measure_at ?? null;
  const due = m?.outcome.status === "pending" && measureAt !== null && isDue(measureAt, now);
  return {
    id: artifact.id,
    title: artifact.title,
    owner: artifact.owner,
    created_at: artifact.created_at,
    age: ageOf(artifact.created_at, now),
    action: m ? { label: CARD_LABELS.action, text: m.human_action, needed: needsHuman(m) } : null,
    outcome: m
      ? {
          status: m.outcome.status,
          text: OUTCOME_LABELS[m.outcome.status],
          measure_at: measureAt,
          due,
          line: [
            OUTCOME_LABELS[m.outcome.status],
            ...(measureAt ? [`${CARD_LABELS.measureAt.toLowerCase()} ${measureAt}`] : []),
            ...(due ? [CARD_LABELS.due] : []),
          ].join(" · "),
        }
      : null,
    tags: artifact.tags,
  };
}
