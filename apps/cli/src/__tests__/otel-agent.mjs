// A small instrumented agent, run as its own Node process: the stock OpenTelemetry JS SDK
// records an agent trace as GenAI instrumentation writes it (invoke_agent with two
// execute_tool children, one failed) and exports it with a stock OTLP/HTTP exporter.
// Usage: node otel-agent.mjs '{"url", "token", "exporter": "proto"|"json", "gzip"?, "agent",
//   "service", "batches": [["children"|"root"|"all"], ...], "traceId"?}'
// Prints {"traceId", "rootSpanId", "results": [export result code per batch]}.
import { ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, RandomIdGenerator, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

const options = JSON.parse(process.argv[2] ?? "{}");
const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": options.service, "service.version": "1.4.2" }),
  spanProcessors: [new SimpleSpanProcessor(memory)],
  // A trace id chosen by the caller, so a receipt can name the trace before it is exported.
  ...(options.traceId && { idGenerator: { generateTraceId: () => options.traceId, generateSpanId: () => new RandomIdGenerator().generateSpanId() } }),
});
const tracer = provider.getTracer("agent-under-test", "0.1.0");
const root = tracer.startSpan(`invoke_agent ${options.agent}`, {
  attributes: {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": options.agent,
    "gen_ai.request.model": "opus-5",
    "gen_ai.usage.input_tokens": 1234,
  },
});
const parent = trace.setSpan(ROOT_CONTEXT, root);
for (const [tool, failure] of [
  ["search_flights", null],
  ["book_hotel", "no rooms left <b>tonight</b>"],
]) {
  const span = tracer.startSpan(
    `execute_tool ${tool}`,
    { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "gen_ai.tool.call.arguments": ["LHR", "JFK"] } },
    parent,
  );
  if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}
root.end();

const rootSpanId = root.spanContext().spanId;
const spans = memory.getFinishedSpans();
const pick = {
  all: spans,
  root: spans.filter((s) => s.spanContext().spanId === rootSpanId),
  children: spans.filter((s) => s.spanContext().spanId !== rootSpanId),
};
const Exporter = options.exporter === "proto" ? ProtoExporter : JsonExporter;
const exporter = new Exporter({
  url: `${options.url}/v1/traces`,
  headers: { Authorization: `Bearer ${options.token}` },
  ...(options.gzip && { compression: "gzip" }),
});
const results = [];
for (const batch of options.batches ?? [["all"]]) {
  const result = await new Promise((resolve) =>
    exporter.export(
      batch.flatMap((b) => pick[b]),
      resolve,
    ),
  );
  results.push(result.code);
}
await exporter.shutdown();
process.stdout.write(JSON.stringify({ traceId: root.spanContext().traceId, rootSpanId, results }));
