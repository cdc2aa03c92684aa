export { OTLP_CONTENT_TYPES, type OtlpEncoding, otlpEncodingOf, otlpTooLarge } from "./decode.js";
export type { IngestResult } from "./ingest.js";
export { OTLP_LIMITS } from "./limits.js";
export { ARTIFACT_ATTRIBUTE, OWNER_ATTRIBUTE } from "./map.js";
export { otlpTypes } from "./proto.js";
export { type OtlpReply, type OtlpRequest, otlpFailure, receiveTraces } from "./receive.js";
