import { provenanceHeader } from "../artifact/provenance-line.js";
import type { Provenance } from "../artifact/schemas.js";
import { CARD_LABELS, readableMeasureAt } from "../view/card.js";

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
}

/** Where a person opens a receipt: the artifact page, which needs sign-in (never the share link). */
export const artifactLink = (publicUrl: string, id: string) => `${publicUrl}/a/${encodeURIComponent(id)}`;

const TRIGGER_WORDS: Record<string, string> = {
  assigned: "Assigned to you",
  open_action: "Waiting on you",
  overdue: "Outcome overdue",
  reminder: "Reminder",
  digest: "What waits on you",
};

/** The words of a notification (SPEC §27): the action as stored, the title, the owner, who asserted it, the link. */
export function messageOf(contents: readonly NotificationContent[], publicUrl: string): Message {
  const [first] = contents;
  if (!first) throw new Error("no notification to render");
  if (contents.length > 1) {
    return {
      title: `Cairn: ${contents.length} notifications`,
      lines: contents.map(
        (c) =>
          `• ${TRIGGER_WORDS[c.kind] ?? c.kind}: ${c.title ?? ""} — ${CARD_LABELS.action}: ${c.human_action ?? ""} (${c.artifact_id ? artifactLink(publicUrl, c.artifact_id) : ""})`,
      ),
      link: { label: "Open the inbox", url: `${publicUrl}/inbox` },
      context: [`${contents.length} notifications within a minute, grouped into one message.`],
      tags: ["bell"],
      priority: 3,
      grouped: true,
    };
  }
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
    };
  }
  const heading = TRIGGER_WORDS[first.kind] ?? "Notification";
  const lines = [`${CARD_LABELS.action}: ${first.human_action ?? ""}`];
  if (first.kind === "overdue" && first.measure_at)
    lines.push(`${CARD_LABELS.measureAt}: ${readableMeasureAt(first.measure_at)} (${CARD_LABELS.overdue.toLowerCase()})`);
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
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Slack's mrkdwn escaping: only &, < and > are control characters (api.slack.com, "Escaping text"). */
export const escapeMrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The plain-text part of an email (and the ntfy body). */
export function plainTextOf(m: Message): string {
  return `${[m.title, "", ...m.lines, "", ...(m.link ? [`${m.link.label}: ${m.link.url}`, ""] : []), ...m.context].join("\n").trimEnd()}\n`;
}

/** The HTML part: the card's words in a small table, every value escaped. */
export function htmlOf(m: Message): string {
  const p = (s: string) => `<p style="margin:0 0 8px">${escapeHtml(s)}</p>`;
  return [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,sans-serif;color:#1f2328;max-width:560px">',
    `<h1 style="font-size:18px">${escapeHtml(m.title)}</h1>`,
    ...m.lines.map(p),
    ...(m.link
      ? [
          `<p><a href="${escapeHtml(m.link.url)}" style="display:inline-block;padding:8px 14px;background:#0b5cad;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(m.link.label)}</a></p>`,
        ]
      : []),
    ...m.context.map((c) => `<p style="margin:0;color:#59636e;font-size:13px">${escapeHtml(c)}</p>`),
    "</body></html>",
  ].join("\n");
}

/** Slack incoming-webhook body: `text` (the fallback) and Block Kit section, context and a button. */
export function slackBodyOf(m: Message): Record<string, unknown> {
  const e = escapeMrkdwn;
  const blocks: unknown[] = [{ type: "section", text: { type: "mrkdwn", text: `*${e(m.title)}*\n${m.lines.map(e).join("\n")}`.slice(0, 3000) } }];
  if (m.context.length > 0) blocks.push({ type: "context", elements: m.context.slice(0, 10).map((c) => ({ type: "mrkdwn", text: e(c).slice(0, 3000) })) });
  if (m.link) {
    blocks.push({
      type: "actions",
      elements: [{ type: "button", text: { type: "plain_text", text: m.link.label }, url: m.link.url, action_id: "open" }],
    });
  }
  return { text: e(`${m.title}: ${m.lines[0] ?? ""}`), blocks };
}
