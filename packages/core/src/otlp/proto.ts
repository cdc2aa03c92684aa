import protobuf from "protobufjs";
import { OTLP_DESCRIPTOR } from "./descriptor.js";

/**
 * The OTLP messages of the official opentelemetry-proto files in `packages/core/proto`
 * (ADR 0034), read by protobufjs: no wire format of our own. They come from the files'
 * descriptor, generated beside this module, so a bundled `cairn` needs no files on disk
 * (ADR 0037). Built once, on the first request that needs them.
 */

export interface OtlpTypes {
  request: protobuf.Type;
  response: protobuf.Type;
  status: protobuf.Type;
}

let loaded: OtlpTypes | undefined;

export function otlpTypes(): OtlpTypes {
  if (loaded) return loaded;
  const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as protobuf.INamespace);
  root.resolveAll();
  loaded = {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    status: root.lookupType("google.rpc.Status"),
  };
  return loaded;
}
