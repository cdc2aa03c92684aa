import { CairnError, LIMITS, ROOT_FIELD, unsupportedMediaType } from "@cairn/core";
import { jsonSyntaxReason } from "@cairn/core/json";
import type { Context } from "hono";

const tooLarge = () =>
  new CairnError("payload_too_large", `The request body is larger than ${LIMITS.requestBytes} bytes.`, {
    issues: [{ field: ROOT_FIELD, reason: "is larger than the request limit", limit: LIMITS.requestBytes }],
  });

/** `application/json` or a `+json` type, any parameters (charset); nothing else is parsed as JSON. */
function isJsonContentType(header: string | undefined): boolean {
  const type = header?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Served by `cairn serve`: node-server passes `{ incoming }` as env. */
const fromNodeServer = (c: Context): boolean => typeof (c.env as { incoming?: unknown } | undefined)?.incoming === "object";

/** A body read as it arrives, refused with `tooBig()` once it passes `limit` bytes (Content-Length is not trusted). */
async function readCountedBody(stream: ReadableStream<Uint8Array> | null, limit: number, tooBig: () => Error): Promise<Uint8Array | undefined> {
  if (!stream) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A request's bytes, never more than `limit`: a declared length past it is refused before
 * anything is read. From `cairn serve` with a declared length, Node's parser ends the body
 * there, so `arrayBuffer()` reads it straight from the socket's chunks; that skips the web
 * `Request` and its stream that `body` builds (~0.3 ms of CPU a request). Anything else
 * (chunked bodies, in-process requests) is counted as it arrives.
 */
export async function readBoundedBody(c: Context, limit: number, tooBig: () => Error): Promise<Uint8Array | undefined> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > limit) throw tooBig();
  const bytes =
    fromNodeServer(c) && declared > 0 && c.req.header("transfer-encoding") === undefined
      ? new Uint8Array(await c.req.raw.arrayBuffer())
      : await readCountedBody(c.req.raw.body, limit, tooBig);
  if (bytes !== undefined && bytes.byteLength > limit) throw tooBig();
  return bytes;
}

/**
 * Reads a JSON body without trusting Content-Length: bytes are counted as they arrive.
 * Malformed JSON is the caller's error (422), never a 500; a body of another content
 * type is refused (415) before it is read. An empty body needs no type.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const type = c.req.header("content-type");
  const json = isJsonContentType(type);
  if (type !== undefined && !json) throw unsupportedMediaType(type);
  const bytes = await readBoundedBody(c, LIMITS.requestBytes, tooLarge);
  if (bytes === undefined) return undefined;
  if (bytes.byteLength > 0 && !json) throw unsupportedMediaType(type);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = jsonSyntaxReason(text, err);
    throw new CairnError("validation_failed", `The request body ${reason}.`, { issues: [{ field: ROOT_FIELD, reason }] });
  }
}
