import type { Logger } from "@cairn/core";
import type { Context } from "hono";

export const NDJSON = "application/x-ndjson";

/**
 * Streams every page as NDJSON, one item per line. The first page is awaited before the
 * response starts, so bad input is still an ordinary error envelope with its status.
 * A failure after that cannot change the status any more: the stream is errored, which
 * aborts the chunked response, so a client sees a broken transfer rather than a short
 * export that looks complete.
 */
export async function ndjsonResponse(c: Context, pages: AsyncGenerator<{ items: unknown[] }, void>, log: Logger): Promise<Response> {
  let pending: IteratorResult<{ items: unknown[] }, void> | null = await pages.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await pages.next());
        pending = null;
        if (next.done) {
          controller.close();
          return;
        }
        const lines = next.value.items.map((item) => `${JSON.stringify(item)}\n`).join("");
        if (lines.length > 0) controller.enqueue(encoder.encode(lines));
      } catch (err) {
        log.error({ code: "export_stream_failed", requestId: c.get("requestId") as string | undefined, surface: "rest" }, err);
        controller.error(err);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  c.header("Content-Type", `${NDJSON}; charset=utf-8`);
  c.header("Cache-Control", "no-store");
  return c.body(body, 200);
}
