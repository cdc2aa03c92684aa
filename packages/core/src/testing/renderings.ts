import type { ArtifactRow } from "../artifact/internal.js";
import type { Artifact } from "../artifact/schemas.js";
import { renderReceiptV1 } from "../receipt/render.js";
import type { ReceiptMetadata } from "../receipt/schemas.js";

/**
 * The receipts every rendering's golden files are made from (SPEC §25: the web card, the
 * MCP App's data, the A2UI messages, the CLI's `read` header and the event come from one
 * view). Fixed ids, instants and base URL, so the goldens are bytes.
 */
export const RENDERING_NOW = new Date("2026-12-10T12:00:00.000Z");
export const RENDERING_PUBLIC_URL = "https://cairn.example.com";

const provenance: Artifact["provenance"] = { actor: { id: "tok_claude", name: "claude", kind: "agent" }, on_behalf_of: "sam", model: "opus-5", surface: "mcp" };

function fixture(id: string, title: string, metadata: ReceiptMetadata, extra: Partial<Artifact> = {}): Artifact {
  return {
    id,
    title,
    share_type: "markdown",
    body: renderReceiptV1({ title, metadata }),
    checksum: "sha256:0000000000000000000000000000000000000000000000000000000000000000",
    tags: ["receipt"],
    metadata: metadata as unknown as Artifact["metadata"],
    owner: "user:sam",
    provenance,
    follows: null,
    produced_by: [],
    acknowledgements: [],
    url: `${RENDERING_PUBLIC_URL}/s/share_${id}`,
    created_at: "2026-12-01T09:00:00.000Z",
    expires_at: "2026-12-08T09:00:00.000Z",
    retained: false,
    assignee: null,
    ask: null,
    decision: null,
    followed_by: [],
    followed: (extra.followed_by?.length ?? 0) > 0,
    ...extra,
  };
}

/** Every part filled: evidence (a web link and a run), a note, an overdue pending outcome, remaining items, an assignee, an acknowledgement, hostile text. */
const full = fixture(
  "art_01renderfull0000000000000000",
  "Rotated the staging API keys",
  {
    schema: "cairn.receipt/v1",
    changed: "Rotated the staging API keys",
    affected: "Everyone who deploys to staging",
    before: "Keys were eleven months old & shared in <chat>.",
    after: "Keys are fresh, in the vault, and rotate every 90 days.",
    evidence: [
      { label: "Vault audit log", url: "https://vault.example.com/audit/42" },
      { label: "The rotation run", url: "mcp://cairn/runs/run_01jd8x3q5v7w9y2b4c6d8f0g1h" },
    ],
    evidence_note: "The audit log shows both revocations.",
    outcome: { status: "pending", measure_at: "2026-12-05", summary: "No deploy fails for a missing key." },
    human_action: "Approve the vault policy change",
    remaining: [
      { item: "Rotate the production keys", owner: "sam" },
      { item: "Remove the old chat message", owner: "ana" },
    ],
    learned: "The nightly export used the old keys too.",
  } as ReceiptMetadata,
  {
    assignee: "ana",
    acknowledgements: [{ by: { user: "ana", token_name: "laptop" }, at: "2026-12-02T10:15:00.000Z", note: "On it" }],
  },
);

/** The least a receipt can say: no evidence, nothing remains, nothing asked, retained. */
const minimal = fixture(
  "art_01renderminimal00000000000000",
  "Renamed the staging export bucket",
  {
    schema: "cairn.receipt/v1",
    changed: "Renamed the staging export bucket",
    affected: "Nobody outside the team",
    before: "exports-tmp",
    after: "exports-staging",
    evidence: [],
    outcome: { status: "not_applicable" },
    human_action: "Nothing",
    remaining: [],
    learned: "nothing new",
  } as ReceiptMetadata,
  { expires_at: null, retained: true },
);

const askedMetadata = {
  schema: "cairn.receipt/v1",
  changed: "Prepared the orders table migration",
  affected: "Everyone who writes orders during the window",
  before: "orders.total was a float.",
  after: "A migration to numeric(12,2) is ready and rehearsed on a copy.",
  evidence: [{ label: "Rehearsal log", url: "https://ci.example.com/runs/77" }],
  outcome: { status: "not_applicable" },
  human_action: "Approve the migration window",
  remaining: [],
  learned: "The copy took 14 minutes to migrate.",
} as ReceiptMetadata;
const ask: Artifact["ask"] = {
  options: [
    { id: "approve", label: "Approve tonight" },
    { id: "wait", label: "Wait for the weekend" },
  ],
  comment: "optional",
  answer_by: "2026-12-12T17:00:00.000Z",
};

/** It asks a person to choose (SPEC §32), and nobody has answered yet. */
const asked = fixture("art_01renderasked000000000000000", "Prepared the orders table migration", askedMetadata, { ask });

/** The same ask, answered with a comment: the card says who chose what, and when. */
const decided = fixture("art_01renderdecided0000000000000", "Prepared the orders table migration", askedMetadata, {
  ask,
  decision: {
    state: "decided",
    option: "wait",
    label: "Wait for the weekend",
    comment: "Friday's release <freeze> comes first.",
    by: { user: "sam", token_name: "web" },
    via: "web",
    at: "2026-12-10T10:00:00.000Z",
  },
  acknowledgements: [{ by: { user: "sam", token_name: "web" }, at: "2026-12-10T10:00:00.000Z", note: null }],
});

export const RENDERING_FIXTURES: Record<string, Artifact> = { full, minimal, asked, decided };

/** The stored row an artifact fixture was read from (for the event, which is made from the row). */
export function renderingRowOf(artifact: Artifact): ArtifactRow {
  return {
    id: artifact.id,
    owner: artifact.owner,
    title: artifact.title,
    share_type: artifact.share_type,
    body: artifact.body,
    checksum: artifact.checksum,
    tags: artifact.tags,
    metadata: artifact.metadata,
    provenance: artifact.provenance,
    follows: artifact.follows?.id ?? null,
    share_token: artifact.url.slice(artifact.url.lastIndexOf("/") + 1),
    created_at: artifact.created_at,
    expires_at: artifact.expires_at,
    retained: artifact.retained,
    assignee: artifact.assignee,
    details: null,
  };
}
