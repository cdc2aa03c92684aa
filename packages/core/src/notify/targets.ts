import type { Issue } from "../errors.js";
import type { ChannelKind } from "./schemas.js";

/** A plain address: one @, a dot in the domain, no spaces, no angle brackets (nothing a header could be bent with). */
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/**
 * Why `target` is not a target of `kind` (the 422 names the field `target`), or null.
 * Whether a URL's host is private is decided at send time, on the resolved address
 * (CAIRN_WEBHOOK_DENY_PRIVATE), like webhooks.
 */
export function channelTargetIssue(kind: ChannelKind, target: string): Issue | null {
  if (kind === "email") {
    if (target.length > 254 || !ADDRESS.test(target)) return { field: "target", reason: "is not an email address (name@example.com)" };
    return null;
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { field: "target", reason: `is not a URL: a ${kind === "slack" ? "Slack incoming-webhook" : "ntfy topic"} URL is needed` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { field: "target", reason: "must be an https: or http: URL" };
  if (url.hostname === "") return { field: "target", reason: "has no host" };
  if (kind === "slack" && (url.username !== "" || url.password !== ""))
    return { field: "target", reason: "must not carry credentials (a Slack webhook URL has none)" };
  if (url.pathname === "/" || url.pathname === "") {
    return {
      field: "target",
      reason:
        kind === "ntfy" ? "names no topic (https://ntfy.sh/your-topic)" : "has no path: a Slack webhook URL looks like https://hooks.slack.com/services/…",
    };
  }
  if (url.hash !== "") return { field: "target", reason: "must not have a #fragment" };
  return null;
}

/** The stored form: an address lower-cased in its domain, a URL as the parser writes it. */
export function normalTarget(kind: ChannelKind, target: string): string {
  if (kind !== "email") return new URL(target).href;
  const at = target.lastIndexOf("@");
  return `${target.slice(0, at)}@${target.slice(at + 1).toLowerCase()}`;
}

/**
 * A target as shown after creation (SPEC §27: channel URLs carry secrets). An address is
 * shown whole (it is where the mail goes, not a secret); a URL keeps its scheme, host and
 * the last four characters of its path, and drops any credentials.
 */
export function maskTarget(kind: ChannelKind, target: string): string {
  if (kind === "email") return target;
  const url = new URL(target);
  const path = `${url.pathname}${url.search}`;
  const tail = path.length > 8 ? path.slice(-4) : "";
  return `${url.protocol}//${url.username ? "•••@" : ""}${url.host}/…${tail}`;
}
