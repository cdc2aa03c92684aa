import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import type { MailConfig } from "../context.js";
import { resolveTarget, TargetRefused } from "../events/targets.js";
import { htmlOf, type Message, plainTextOf, slackBodyOf } from "./render.js";
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

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One POST to a channel URL, the host resolved once, checked against the private ranges
 * when the operator refuses them (CAIRN_WEBHOOK_DENY_PRIVATE), and the connection pinned
 * to that address (as webhooks do, events/send.ts). Credentials in the URL become Basic
 * authorization and never travel in the request line.
 */
export async function postTo(target: string, headers: Record<string, string>, body: string, s: SendSettings): Promise<SendOutcome> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const url = new URL(target);
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveTarget(url.hostname, s.denyPrivate);
  } catch (err) {
    const reason = err instanceof TargetRefused ? err.message : `could not resolve ${url.hostname}`;
    return { ok: false, status: null, error: `target refused: ${reason}`, latencyMs: elapsed() };
  }
  const auth =
    url.username || url.password ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` : null;
  url.username = "";
  url.password = "";
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const bytes = Buffer.from(body, "utf8");
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const done = (r: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(url, {
      method: "POST",
      lookup,
      agent: false,
      ...(s.signal && { signal: s.signal }),
      headers: { "content-length": String(bytes.length), "user-agent": "Cairn-Notifications/1", ...headers, ...(auth && { authorization: auth }) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: `timed out after ${s.timeoutMs} ms`, latencyMs: elapsed() });
    }, s.timeoutMs);
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const finish = () => {
        const ok = status >= 200 && status < 300;
        const ra = res.headers["retry-after"];
        const retryAfterMs = (status === 429 || status === 503) && ra && /^\d+$/.test(ra.trim()) ? Number(ra.trim()) * 1000 : undefined;
        done({ ok, status, ...(!ok && { error: `HTTP ${status}` }), latencyMs: elapsed(), ...(retryAfterMs !== undefined && { retryAfterMs }) });
      };
      res.on("end", finish);
      res.on("close", finish);
      res.on("error", finish);
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      done({ ok: false, status: null, error: `request failed: ${s.signal?.aborted ? "aborted at shutdown" : (err.code ?? err.name)}`, latencyMs: elapsed() });
    });
    req.end(bytes);
  });
}

/** A header value ntfy reads: ASCII as is, anything else RFC 2047-encoded (ntfy decodes it). */
export const headerText = (s: string) => {
  const flat = s.replace(/[\r\n]+/g, " ").slice(0, 250);
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, "utf8").toString("base64")}?=`;
};

function ntfyRequest(m: Message): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      title: headerText(m.title),
      ...(m.link && { click: m.link.url }),
      tags: m.tags.join(","),
      priority: String(m.priority),
    },
    body: [...m.lines, ...m.context].join("\n"),
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
