import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types
import { descriptorOfProtoFiles } from "../../../scripts/otlp-descriptor.mjs";
import { OTLP_DESCRIPTOR } from "../descriptor.js";
import { otlpTypes } from "../proto.js";

describe("the OTLP descriptor the server decodes with", () => {
  it("is the one the official .proto files in packages/core/proto make (run scripts/otlp-descriptor.mjs after changing them)", () => {
    expect(JSON.parse(JSON.stringify(OTLP_DESCRIPTOR))).toEqual(JSON.parse(JSON.stringify(descriptorOfProtoFiles())));
  });

  it("decodes what it encodes: a span's ids survive as bytes", () => {
    const { request } = otlpTypes();
    const traceId = Buffer.from("5b8efff798038103d269b633813fc60c", "hex");
    const bytes = request
      .encode(request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId, spanId: Buffer.alloc(8, 1), name: "invoke_agent" }] }] }] }))
      .finish();
    const back = request.toObject(request.decode(bytes)) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: Uint8Array; name: string }> }> }>;
    };
    const span = back.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(span?.name).toBe("invoke_agent");
    expect(Buffer.from(span?.traceId ?? []).toString("hex")).toBe("5b8efff798038103d269b633813fc60c");
  });
});
