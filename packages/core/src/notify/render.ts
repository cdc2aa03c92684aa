import { provenanceHeader } from "../artifact/provenance-line.js";
import type { Provenance } from "../artifact/schemas.js";
import type { Ask, Decision } from "../decision/schemas.js";
import { CARD_LABELS, readableMeasureAt } from "../view/card.js";
import { askQuestionLines, DECISION_WORDS, decisionText } from "../view/decision.js";
import { visibleText } from "../visible-text.js";

/** What a queued notification holds (migration 0025's `content`), as the fan-out wrote it. */
export interface NotificationContent {
  kind: string;
  artifact_id?: string;
  title?: string;
  human_action?: string;
  owner?: string;
  provenance?: Provenance;
  assignee?: string | null;
  measure_at?: string | null;
  reminder?: number;
  /** confirm and test: the link to follow; digest: the items. */
  link?: string;
  user?: string;
  items?: Array<{ artifact_id: string; title: string; human_action: string; owner: string }>;
  count?: number;
  /** The receipt's ask (SPEC §32) when it was queued: a person chooses one of its options, by its deadline. */
  ask?: Pick<Ask, "options" | "answer_by"> | null;
  /** decided: the answer, as it stood when the notification was queued. */
  decision?: Decision | null;
}

/** One message to send: the same words for every channel, escaped by each renderer. */
export interface Message {
  /** Email subject, ntfy Title, the first line of Slack's text. */
  title: string;
  /** Plain-text lines (email text part, ntfy body). */
  lines: string[];
  /** The one button: where the person acts (`/a/:id`, sign-in required), or the confirm page. */
  link: { label: string; url: string } | null;
  /** Short facts (owner, who asserted it): Slack context, email footer. */
  context: string[];
  /** ntfy Tags and Priority. */
  tags: string[];
  priority: number;
  /** Sent as a grouped message (more than 3 to one channel within a minute). */
  grouped: boolean;
  /** How many of the notifications rendered this message shows (the first ones); the rest wait for the next message. */
  shown: number;
  /** A grouped message that could not hold every item: how many it left out, and where they all wait. */
  more: { count: number; url: string } | null;
}

/** Whether a channel can carry a message whole (Slack's section limit, ntfy's body size). */
export type MessageFits = (m: Message) => boolean;

/** The longest title and action a line of a grouped message quotes: every line keeps its link. */
const GROUP_TITLE_CHARS = 120;
const GROUP_ACTION_CHARS = 160;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Where a person opens a receipt: the artifact page, which needs sign-in (never the share link). */
export const artifactLink = (publicUrl: string, id: string) => `${publicUrl}/a/${encodeURIComponent(id)}`;

const TRIGGER_WORDS: Record<string, string> = {
  assigned: "Assigned to you",
  open_action: "Waiting on you",
  overdue: "Outcome overdue",
  reminder: "Reminder",
  digest: "What waits on you",
  decided: "Answered",
};

/**
 * The words of a notification (SPEC §27): the action as stored, the title, the owner, who
 * asserted it, the link. Control characters and bidi overrides in them are shown as visible
 * escapes (SPEC §37), as the CLI shows them, before any channel escapes its own format.
 */
export function messageOf(contents: readonly NotificationContent[], publicUrl: string, fits: MessageFits = () => true): Message {
  if (contents.length > 1) return groupedMessage(contents, publicUrl, fits);
  return visible(singleMessage(contents, publicUrl));
}

const visible = (m: Message): Message => ({
  ...m,
  title: visibleText(m.title),
  lines: m.lines.map(visibleText),
  context: m.context.map(visibleText),
  link: m.link && { ...m.link, label: visibleText(m.link.label) },
});

function singleMessage(contents: readonly NotificationContent[], publicUrl: string): Message {
  const [first] = contents;
  if (!first) throw new Error("no notification to render");
  if (first.kind === "confirm") {
    return {
      title: "Confirm your address for Cairn notifications",
      lines: [
        `${first.user ?? "Someone"} asked Cairn to send notifications to this address.`,
        "Open the link and press Confirm to start receiving them. If that was not you, ignore this message.",
        first.link ?? "",
      ],
      link: first.link ? { label: "Confirm this address", url: first.link } : null,
      context: ["The link works for 7 days."],
      tags: ["email"],
      priority: 3,
      grouped: false,
      shown: 1,
      more: null,
    };
  }
  if (first.kind === "test") {
    return {
      title: "Cairn test notification",
      lines: [`This channel works: ${first.user ?? "you"} will be told here when something waits on them.`],
      link: first.link ? { label: "Notification settings", url: first.link } : null,
      context: [],
      tags: ["white_check_mark"],
      priority: 3,
      grouped: false,
      shown: 1,
      more: null,
    };
  }
  if (first.kind === "digest") {
    const items = first.items ?? [];
    return {
      title: `Cairn: ${first.count ?? items.length} waiting on you`,
      lines: items.map((i) => `• ${i.title} — ${CARD_LABELS.action}: ${i.human_action} (${artifactLink(publicUrl, i.artifact_id)})`),
      link: { label: "Open the inbox", url: `${publicUrl}/inbox` },
      context: [`Daily digest: ${first.count ?? items.length} waiting.`],
      tags: ["inbox_tray"],
      priority: 2,
      grouped: false,
      shown: 1,
      more: null,
    };
  }
  const heading = TRIGGER_WORDS[first.kind] ?? "Notification";
  const lines = [`${CARD_LABELS.action}: ${first.human_action ?? ""}`];
  if (first.kind === "overdue" && first.measure_at)
    lines.push(`${CARD_LABELS.measureAt}: ${readableMeasureAt(first.measure_at)} (${CARD_LABELS.overdue.toLowerCase()})`);
  if (first.kind === "decided" && first.decision) {
    lines.push(decisionText(first.decision));
    if (first.decision.state === "decided" && first.decision.comment) lines.push(`${DECISION_WORDS.comment}: ${first.decision.comment}`);
  } else if (first.ask) lines.push(...askQuestionLines(first.ask));
  if (first.kind === "reminder" && first.reminder) lines.push(`Reminder ${first.reminder} of 3: nobody has acknowledged it yet.`);
  const context = [`Owner: ${first.owner ?? ""}`];
  if (first.provenance) context.push(provenanceHeader(first.provenance).text);
  if (first.assignee) context.push(`${CARD_LABELS.assignee}: ${first.assignee}`);
  return {
    title: `${heading}: ${first.title ?? ""}`,
    lines,
    link: first.artifact_id ? { label: "Open in Cairn", url: artifactLink(publicUrl, first.artifact_id) } : null,
    context,
    tags: [first.kind === "overdue" ? "hourglass" : first.kind === "reminder" ? "alarm_clock" : "bell"],
    priority: first.kind === "overdue" || first.kind === "reminder" ? 4 : 3,
    grouped: false,
    shown: 1,
    more: null,
  };
}

/**
 * One message for many notifications: as many lines as the channel can carry whole (at
 * least one), then "and N more" with the inbox link. The caller marks delivered only the
 * `shown` first ones; the others stay queued for the next message.
 */
function groupedMessage(contents: readonly NotificationContent[], publicUrl: string, fits: MessageFits): Message {
  const inbox = `${publicUrl}/inbox`;
  const line = (c: NotificationContent) =>
    `• ${TRIGGER_WORDS[c.kind] ?? c.kind}: ${clip(c.title ?? "", GROUP_TITLE_CHARS)} — ${CARD_LABELS.action}: ${clip(c.human_action ?? "", GROUP_ACTION_CHARS)} (${c.artifact_id ? artifactLink(publicUrl, c.artifact_id) : inbox})`;
  const all = contents.map(line);
  const make = (shown: number): Message =>
    visible({
      title: `Cairn: ${contents.length} notifications`,
      lines: all.slice(0, shown),
      link: { label: "Open the inbox", url: inbox },
      context: [
        shown < contents.length
          ? `${contents.length} notifications within a minute: ${shown} shown here, the other ${contents.length - shown} in the next message.`
          : `${contents.length} notifications within a minute, grouped into one message.`,
      ],
      tags: ["bell"],
      priority: 3,
      grouped: true,
      shown,
      more: shown < contents.length ? { count: contents.length - shown, url: inbox } : null,
    });
  let low = 1;
  let high = contents.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(make(mid))) low = mid;
    else high = mid - 1;
  }
  return make(low);
}

/** The "and N more" line in plain text (email text part, ntfy body). */
export const moreLine = (m: Message) => (m.more ? [`…and ${m.more.count} more: ${m.more.url}`] : []);

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Slack's mrkdwn escaping: only &, < and > are control characters (api.slack.com, "Escaping text"). */
export const escapeMrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The plain-text part of an email (and the ntfy body). */
export function plainTextOf(m: Message): string {
  return `${[m.title, "", ...m.lines, ...moreLine(m), "", ...(m.link ? [`${m.link.label}: ${m.link.url}`, ""] : []), ...m.context].join("\n").trimEnd()}\n`;
}

/** The HTML part: the card's words in a small table, every value escaped. */
export function htmlOf(m: Message): string {
  const p = (s: string) => `<p style="margin:0 0 8px">${escapeHtml(s)}</p>`;
  return [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,sans-serif;color:#1f2328;max-width:560px">',
    `<h1 style="font-size:18px">${escapeHtml(m.title)}</h1>`,
    ...m.lines.map(p),
    ...(m.more ? [`<p style="margin:0 0 8px">…and ${m.more.count} more: <a href="${escapeHtml(m.more.url)}">open the inbox</a></p>`] : []),
    ...(m.link
      ? [
          `<p><a href="${escapeHtml(m.link.url)}" style="display:inline-block;padding:8px 14px;background:#0b5cad;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(m.link.label)}</a></p>`,
        ]
      : []),
    ...m.context.map((c) => `<p style="margin:0;color:#59636e;font-size:13px">${escapeHtml(c)}</p>`),
    "</body></html>",
  ].join("\n");
}

/** Slack's limit on a section block's text (Block Kit reference, "Section block"). */
export const SLACK_SECTION_CHARS = 3_000;

/** The section's mrkdwn: the title, the lines, and "and N more" as a link to the inbox. */
export function slackSectionText(m: Message): string {
  const e = escapeMrkdwn;
  const more = m.more ? `\n_…and ${m.more.count} more_ — <${e(m.more.url)}|open the inbox>` : "";
  return `*${e(m.title)}*\n${m.lines.map(e).join("\n")}${more}`;
}

/** Slack incoming-webhook body: `text` (the fallback) and Block Kit section, context and a button. */
export function slackBodyOf(m: Message): Record<string, unknown> {
  const e = escapeMrkdwn;
  const blocks: unknown[] = [{ type: "section", text: { type: "mrkdwn", text: slackSectionText(m).slice(0, SLACK_SECTION_CHARS) } }];
  if (m.context.length > 0) blocks.push({ type: "context", elements: m.context.slice(0, 10).map((c) => ({ type: "mrkdwn", text: e(c).slice(0, 3000) })) });
  if (m.link) {
    blocks.push({
      type: "actions",
      elements: [{ type: "button", text: { type: "plain_text", text: m.link.label }, url: m.link.url, action_id: "open" }],
    });
  }
  return { text: e(`${m.title}: ${m.lines[0] ?? ""}`), blocks };
}
