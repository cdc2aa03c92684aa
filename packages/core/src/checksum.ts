import { createHash } from "node:crypto";

/** `sha256:` + lowercase hex of the UTF-8 bytes. */
export function checksumOf(body: string): string {
  return `sha256:${createHash("sha256").update(body, "utf8").digest("hex")}`;
}
