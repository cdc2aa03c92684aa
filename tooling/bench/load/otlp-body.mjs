// OTLP/HTTP protobuf bodies for the traces row: each request a new agent trace (an
// invoke_agent root and its execute_tool children, gen_ai.* attributes), encoded with
// protobufjs from the same opentelemetry-proto files Cairn decodes with.
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const PROTO_DIR = fileURLToPath(new URL("../../../packages/core/proto/", import.meta.url));

export function otlpTypes() {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith("google/protobuf/") ? target : `${PROTO_DIR}${target}`);
  root.loadSync(["opentelemetry/proto/collector/trace/v1/trace_service.proto"]);
  return {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
  };
}

const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: value } });

/** A request body of `spans` spans (one root, the rest its tool calls) in a fresh trace. */
export function agentTraceBody(types, spans) {
  const traceId = randomBytes(16);
  const rootId = randomBytes(8);
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const at = (ms) => String(t0 + BigInt(ms) * 1_000_000n);
  const list = [
    {
      traceId,
      spanId: rootId,
      name: "invoke_agent bench-agent",
      kind: 1,
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(spans * 10),
      attributes: [
        str("gen_ai.operation.name", "invoke_agent"),
        str("gen_ai.agent.name", "bench-agent"),
        str("gen_ai.request.model", "opus-5"),
        int("gen_ai.usage.input_tokens", 4096),
      ],
    },
  ];
  for (let i = 1; i < spans; i++) {
    list.push({
      traceId,
      spanId: randomBytes(8),
      parentSpanId: rootId,
      name: `execute_tool tool_${i % 7}`,
      kind: 1,
      startTimeUnixNano: at(i * 10),
      endTimeUnixNano: at(i * 10 + 8),
      attributes: [
        str("gen_ai.operation.name", "execute_tool"),
        str("gen_ai.tool.name", `tool_${i % 7}`),
        str("gen_ai.tool.call.arguments", `{"query":"flights to city ${i}","limit":10}`),
      ],
      status: { code: i % 17 === 0 ? 2 : 0 },
    });
  }
  const message = types.request.fromObject({
    resourceSpans: [{ resource: { attributes: [str("service.name", "bench-service")] }, scopeSpans: [{ scope: { name: "bench" }, spans: list }] }],
  });
  return Buffer.from(types.request.encode(message).finish());
}

/**
 * Issue 31's amplified request: one resource with 7 attributes of 15,000 characters (or,
 * with `longResource` false, of 10) over 1,000 tiny spans in one new trace (~156 KB).
 */
export function amplifiedBody(types, longResource = true) {
  const traceId = randomBytes(16);
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const resource = [str("service.name", "amplifier"), ...Array.from({ length: 7 }, (_, i) => str(`pad.${i}`, `${i}`.repeat(longResource ? 15_000 : 10)))];
  const spans = Array.from({ length: 1_000 }, (_, i) => ({
    traceId,
    spanId: randomBytes(8),
    name: `s${i}`,
    startTimeUnixNano: String(t0 + BigInt(i)),
    endTimeUnixNano: String(t0 + BigInt(i) + 1_000n),
  }));
  const message = types.request.fromObject({ resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans }] }] });
  return Buffer.from(types.request.encode(message).finish());
}
