import type { Principal } from "../context.js";
import { validationFailed } from "../errors.js";
import { visibleOwners } from "../identity/authorize.js";
import { resolveOwner } from "../identity/owner.js";

/** The owners a list covers: the one asked for (checked), else the caller and their teams. */
export function ownersOf(principal: Principal, owner: string | undefined, doing: string): string[] {
  return owner !== undefined ? [resolveOwner(principal, owner, doing)] : visibleOwners(principal);
}

/** Opaque keyset cursors: the sort key of the last row of a page. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string, shape: readonly RegExp[]): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parts = null;
  }
  const ok = Array.isArray(parts) && parts.length === shape.length && parts.every((p, i) => typeof p === "string" && shape[i]?.test(p));
  if (!ok) throw validationFailed([{ field: "cursor", reason: "is not a cursor this server issued" }]);
  return parts as string[];
}

export { ARTIFACT_ID } from "../ids.js";
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const DAY_S = 86_400;

/** How long something has waited: whole seconds and days, and the words people read. */
export function ageOf(from: Date | string, now: Date) {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(from).getTime()) / 1000));
  const days = Math.floor(seconds / DAY_S);
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const text =
    seconds < 60
      ? unit(seconds, "second")
      : seconds < 3600
        ? unit(Math.floor(seconds / 60), "minute")
        : seconds < DAY_S
          ? unit(Math.floor(seconds / 3600), "hour")
          : unit(days, "day");
  return { seconds, days, text };
}
