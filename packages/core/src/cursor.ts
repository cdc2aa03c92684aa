import { validationFailed } from "./errors.js";

/** A page's `next_cursor`: the last id, opaque to clients. Pages are keyset-paginated on time-ordered ids. */
export const encodeCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");

/** The id in a cursor this server issued for ids with this prefix (`art`, `drp`); anything else is 422 on `cursor`. */
export function decodeCursor(cursor: string, prefix: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(id)) {
    throw validationFailed([{ field: "cursor", reason: "is not a cursor this server issued" }]);
  }
  return id;
}
