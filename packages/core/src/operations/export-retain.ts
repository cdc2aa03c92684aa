import { ArtifactExportPage, exportArtifacts } from "../artifact/export.js";
import { retainArtifact } from "../artifact/retain.js";
import { Artifact, ArtifactExportInput, ArtifactReadInput } from "../artifact/schemas.js";
import { defineOperation } from "./define.js";

/** Getting artifacts out (export) and keeping them past their expiry (retain). */
export const EXPORT_RETAIN_OPERATIONS = {
  artifact_export: defineOperation({
    name: "artifact_export",
    description:
      "Export every artifact you can read (optionally only one tag), newest first, one page per call. REST streams all pages as NDJSON; `format=in-toto` gives signed DSSE envelopes of receipts instead.",
    input: ArtifactExportInput,
    output: ArtifactExportPage,
    mutates: false,
    run: exportArtifacts,
  }),
  artifact_retain: defineOperation({
    name: "artifact_retain",
    description:
      "Keep an artifact permanently: it no longer expires (retained: true, expires_at: null). Only its owner, or members of its owning team.",
    input: ArtifactReadInput,
    output: Artifact,
    mutates: true,
    run: retainArtifact,
  }),
} as const;
