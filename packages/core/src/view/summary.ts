import type { Artifact } from "../artifact/schemas.js";
import type { OutcomeState } from "../inbox/rules.js";
import { OUTCOME_LABELS, type OutcomeStatus } from "../receipt/schemas.js";
import { acknowledgementText, needsHuman, outcomeNowOf, receiptMetadataOf, STATE_WORDS } from "./state.js";

/** One row of a list of artifacts (the web's bin): what a person scans before opening one. */
export interface ArtifactSummaryView {
  id: string;
  title: string;
  owner: string;
  created_at: string;
  /** "3 days ago". */
  age: string;
  /**
   * Null for an artifact that is not a receipt. `waiting`: it asks a person and nobody has
   * acknowledged it; `acknowledged`: "sam acknowledged 2026-12-01 09:10 UTC" once someone has.
   */
  action: { label: string; text: string; needed: boolean; waiting: boolean; acknowledged: string | null } | null;
  /** The user who must act, or null. */
  assignee: string | null;
  outcome: {
    status: OutcomeStatus;
    text: string;
    /** The measurement date, when the receipt set one. */
    measure_at: string | null;
    /** The one rule's state (inbox/rules.ts): a followed receipt is `closed`, never overdue. */
    state: OutcomeState | null;
    /** Marked as overdue: pending, due, and nothing follows it. */
    due: boolean;
    /** All of it as one line: "Pending · measure at 2026-12-07 · Overdue", or "Measured in a later receipt". */
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

type Summarised = Pick<Artifact, "id" | "title" | "owner" | "created_at" | "metadata" | "tags" | "acknowledgements" | "assignee" | "followed_by"> &
  Partial<Pick<Artifact, "followed">>;

export function artifactSummaryOf(artifact: Summarised, now: Date): ArtifactSummaryView {
  const m = receiptMetadataOf(artifact);
  const measureAt = m?.outcome.measure_at ?? null;
  const outcomeNow = m ? outcomeNowOf(m, artifact, now) : null;
  const state = outcomeNow?.state ?? null;
  const firstAck = artifact.acknowledgements[0];
  const needed = m ? needsHuman(m) : false;
  return {
    id: artifact.id,
    title: artifact.title,
    owner: artifact.owner,
    created_at: artifact.created_at,
    age: ageOf(artifact.created_at, now),
    action: m
      ? {
          label: STATE_WORDS.action,
          text: m.human_action,
          needed,
          waiting: needed && firstAck === undefined,
          acknowledged: needed && firstAck ? acknowledgementText(firstAck) : null,
        }
      : null,
    assignee: artifact.assignee,
    outcome: m
      ? {
          status: m.outcome.status,
          text: OUTCOME_LABELS[m.outcome.status],
          measure_at: measureAt,
          state,
          due: state === "overdue",
          // A row names no follow-up: "Measured in a later receipt" once one follows it.
          line: state === "closed" ? `${STATE_WORDS.measuredIn} ${STATE_WORDS.laterReceipt}` : (outcomeNow?.line ?? ""),
        }
      : null,
    tags: artifact.tags,
  };
}
