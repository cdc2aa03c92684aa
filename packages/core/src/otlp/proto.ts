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

/**
 * Message depth past which an AnyValue is read as empty. protobufjs refuses a message
 * nested past 100 levels ("max depth exceeded"), which an AnyValue of some 35 nested
 * key-value lists reaches: the whole export would be refused for one attribute. The
 * mapping keeps 8 levels of values (OTLP_LIMITS.depth, at most 30 message levels below the
 * request), so what is cut here it would have dropped anyway, and says so.
 */
export const ANY_VALUE_CUT_DEPTH = 48;

/** AnyValue's decoder and converter, wrapped so a value nested past ANY_VALUE_CUT_DEPTH is skipped, not refused. */
function cutDeepValues(anyValue: protobuf.Type): void {
  anyValue.setup();
  const decode = anyValue.decode.bind(anyValue) as (r: protobuf.Reader, l?: number, z?: number, q?: number, g?: unknown) => protobuf.Message;
  const fromObject = anyValue.fromObject.bind(anyValue) as (d: Record<string, unknown>, q?: number) => protobuf.Message;
  const empty = () => anyValue.create({});
  Object.assign(anyValue, {
    decode(r: protobuf.Reader | Uint8Array, l?: number, z?: number, q?: number, g?: unknown) {
      if (q !== undefined && q > ANY_VALUE_CUT_DEPTH && l !== undefined && r instanceof protobuf.Reader) {
        r.skip(l);
        return empty();
      }
      return decode(r as protobuf.Reader, l, z, q, g);
    },
    fromObject(d: Record<string, unknown>, q?: number) {
      if (q !== undefined && q > ANY_VALUE_CUT_DEPTH) return empty();
      return fromObject(d, q);
    },
  });
}

export function otlpTypes(): OtlpTypes {
  if (loaded) return loaded;
  const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as protobuf.INamespace);
  root.resolveAll();
  cutDeepValues(root.lookupType("opentelemetry.proto.common.v1.AnyValue"));
  loaded = {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    status: root.lookupType("google.rpc.Status"),
  };
  return loaded;
}
