import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

/**
 * The OTLP messages, read by protobufjs from the official opentelemetry-proto files in
 * `packages/core/proto` (ADR 0034): no wire format of our own. Parsed once, on the first
 * request that needs them (a few milliseconds), so a server that never receives a trace
 * never pays for it.
 */
const PROTO_DIR = fileURLToPath(new URL("../../proto/", import.meta.url));

export interface OtlpTypes {
  request: protobuf.Type;
  response: protobuf.Type;
  status: protobuf.Type;
}

let loaded: OtlpTypes | undefined;

export function otlpTypes(): OtlpTypes {
  if (loaded) return loaded;
  const root = new protobuf.Root();
  // Imports are relative to the proto root, as protoc's -I would resolve them.
  root.resolvePath = (_origin, target) => (target.startsWith("google/protobuf/") ? target : `${PROTO_DIR}${target}`);
  root.loadSync(["opentelemetry/proto/collector/trace/v1/trace_service.proto", "google/rpc/status.proto"], { keepCase: false });
  root.resolveAll();
  loaded = {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    status: root.lookupType("google.rpc.Status"),
  };
  return loaded;
}
