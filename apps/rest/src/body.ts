import { CairnError, LIMITS, ROOT_FIELD, unsupportedMediaType } from "@cairn/core";
import type { Context } from "hono";

const tooLarge = () =>
  new CairnError("payload_too_large", `The request body is larger than ${LIMITS.requestBytes} bytes.`, {
    issues: [{ field: ROOT_FIELD, reason: "is larger than the request limit", limit: LIMITS.requestBytes }],
  });

/** `application/json` or a `+json` type, any parameters (charset); nothing else is parsed as JSON. */
export function isJsonContentType(header: string | undefined): boolean {
  const type = header?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads a JSON body without trusting Content-Length: bytes are counted as they arrive.
 * Malformed JSON is the caller's error (422), never a 500; a body of another content
 * type is refused (415) before it is read. An empty body needs no type.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const declared = Number(c.req.header("content-length") ?? "0");
  const type = c.req.header("content-type");
  const json = isJsonContentType(type);
  if (type !== undefined && !json) throw unsupportedMediaType(type);
  if (declared > LIMITS.requestBytes) throw tooLarge();
  const stream = c.req.raw.body;
  if (!stream) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > LIMITS.requestBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size > 0 && !json) throw unsupportedMediaType(type);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CairnError("validation_failed", "The request body is not valid JSON.", {
      issues: [{ field: ROOT_FIELD, reason: "is not valid JSON" }],
    });
  }
}
