import nodemailer, { type Transporter } from "nodemailer";
import type { MailConfig } from "../context.js";
import { pinnedPost } from "../events/pinned-post.js";
import { htmlOf, type Message, moreLine, plainTextOf, slackBodyOf } from "./render.js";
import type { ChannelKind } from "./schemas.js";

/** What one attempt came to. `permanent` disables the channel at once (an address refused at RCPT with a 5xx). */
export interface SendOutcome {
  ok: boolean;
  status: number | null;
  error?: string;
  permanent?: string;
  latencyMs: number;
  retryAfterMs?: number;
}

export interface SendSettings {
  denyPrivate: boolean;
  mail: MailConfig | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One POST to a channel URL, pinned to the address it resolved to and checked against the
 * private ranges when the operator refuses them, as webhooks are (events/pinned-post.ts).
 * Credentials in the URL become Basic authorization and never travel in the request line.
 */
export async function postTo(target: string, headers: Record<string, string>, body: string, s: SendSettings): Promise<SendOutcome> {
  const url = new URL(target);
  const auth =
    url.username || url.password ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` : null;
  url.username = "";
  url.password = "";
  const result = await pinnedPost(url, { "user-agent": "Cairn-Notifications/1", ...headers, ...(auth && { authorization: auth }) }, Buffer.from(body, "utf8"), {
    denyPrivate: s.denyPrivate,
    timeoutMs: s.timeoutMs,
    signal: s.signal,
  });
  return { ok: result.status !== null && result.status >= 200 && result.status < 300, ...result };
}

/** A header value ntfy reads: ASCII as is, anything else RFC 2047-encoded (ntfy decodes it). */
export const headerText = (s: string) => {
  const flat = s.replace(/[\r\n]+/g, " ").slice(0, 250);
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, "utf8").toString("base64")}?=`;
};

export function ntfyRequest(m: Message): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      title: headerText(m.title),
      ...(m.link && { click: m.link.url }),
      tags: m.tags.join(","),
      priority: String(m.priority),
    },
    body: [...m.lines, ...moreLine(m), ...m.context].join("\n"),
  };
}

const transports = new Map<string, Transporter>();
function transportFor(mail: MailConfig, timeoutMs: number): Transporter {
  let t = transports.get(mail.smtpUrl);
  if (!t) {
    // smtp:// upgrades with STARTTLS when the server offers it; smtps:// is TLS from the first byte.
    const url = new URL(mail.smtpUrl);
    t = nodemailer.createTransport({
      host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
      secure: url.protocol === "smtps:",
      ...(url.username && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transports.set(mail.smtpUrl, t);
  }
  return t;
}

interface SmtpError extends Error {
  responseCode?: number;
  command?: string;
  response?: string;
  code?: string;
}

async function sendMail(to: string, m: Message, s: SendSettings): Promise<SendOutcome> {
  const started = Date.now();
  if (!s.mail) return { ok: false, status: null, error: "this server has no mail configured (CAIRN_SMTP_URL)", latencyMs: 0 };
  try {
    const info = await transportFor(s.mail, s.timeoutMs).sendMail({
      from: s.mail.from,
      to,
      subject: m.title,
      text: plainTextOf(m),
      html: htmlOf(m),
      headers: { "Auto-Submitted": "auto-generated" },
    });
    const code = Number(/^(\d{3})/.exec(String(info.response ?? ""))?.[1] ?? 250);
    return { ok: true, status: code, latencyMs: Date.now() - started };
  } catch (err) {
    const e = err as SmtpError;
    const status = e.responseCode ?? null;
    const error = status ? `SMTP ${status} at ${e.command ?? "send"}: ${(e.response ?? e.message).slice(0, 200)}` : `mail failed: ${e.code ?? e.message}`;
    const atRcpt = /RCPT/i.test(e.command ?? "") || /recipient/i.test(e.message);
    const permanent = status !== null && status >= 500 && atRcpt ? `The mail server refused the address permanently (${status}).` : undefined;
    return { ok: false, status, error, latencyMs: Date.now() - started, ...(permanent && { permanent }) };
  }
}

/** Sends one message to one channel. */
export async function sendTo(kind: ChannelKind, target: string, m: Message, s: SendSettings): Promise<SendOutcome> {
  if (kind === "email") return sendMail(target, m, s);
  if (kind === "slack") return postTo(target, { "content-type": "application/json" }, JSON.stringify(slackBodyOf(m)), s);
  const { headers, body } = ntfyRequest(m);
  return postTo(target, headers, body, s);
}
