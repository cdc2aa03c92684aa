import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Artifact, artifactFacts, artifactListLine, LIMITS, shareLinkOf } from "@cairn/core";
import { ERROR_META_KEY, RPC_INTERNAL, RPC_UNAUTHENTICATED } from "@cairn/mcp";
import { describe, expect, it } from "vitest";
import { explainError, explainStatus } from "../mcp/upstream.js";
import { liveTable } from "../metadata.js";

/**
 * The binary reads core's metadata and view models from what the build wrote into dist
 * (scripts/bundle.mjs) rather than from core. These hold that to core as it is now: a
 * registry or schema change that was not rebuilt, or a bundle that lost a value, fails here.
 */
const built = (name: string) => import(pathToFileURL(join(import.meta.dirname, "../../dist", name)).href);

const artifact = (over: Partial<Artifact> = {}): Artifact =>
  ({
    id: "art_06h2k3m4n5p6q7r8s9t0v1w2x3",
    url: "http://127.0.0.1:7373/s/Xk3abc",
    owner: "team:platform",
    title: "Export retries \u001b[2K",
    body: "# body",
    tags: ["export", "nightly"],
    created_at: "2026-11-30T08:00:00.000Z",
    expires_at: "2026-12-07T08:00:00.000Z",
    retained: false,
    checksum: "sha256:00",
    metadata: { schema: "cairn.receipt/v1", human_action: "Approve the retry budget", outcome: { status: "pending", measure_at: "2026-12-05" } },
    provenance: { actor: { name: "claude", kind: "agent" }, model: "opus-5", on_behalf_of: "sam", surface: "mcp" },
    follows: null,
    acknowledgements: [{ by: { user: "sam", token_name: "laptop" }, at: "2026-12-01T09:10:00.000Z", note: null }],
    assignee: "sam",
    followed_by: ["art_2"],
    followed: true,
    ...over,
  }) as unknown as Artifact;

describe("the built cairn binary", () => {
  it("spells its commands from the table the build wrote, which is core's registry as it is", async () => {
    const { TABLE } = await built("table.js");
    expect(TABLE).toEqual(await liveTable());
  });

  it("prints with core's own view models and limits, bundled without core's schemas", async () => {
    const light = await built("light.js");
    const now = new Date("2026-12-01T10:00:00.000Z");
    for (const a of [
      artifact(),
      artifact({ metadata: null, retained: true, expires_at: null, tags: [] }),
      artifact({
        metadata: { schema: "cairn.receipt/v1", human_action: "Nothing", outcome: { status: "pending", measure_at: "2026-12-01" } },
        followed_by: [],
        followed: false,
      }),
    ]) {
      expect(light.artifactFacts(a, now)).toEqual(artifactFacts(a, now));
      expect(light.artifactListLine(a, now)).toBe(artifactListLine(a, now));
    }
    expect(light.LIMITS).toEqual(LIMITS);
    for (const text of ["http://h:1/s/Ab_-9", "https://h/s/x/", "art_06h2k3m4n5p6q7r8s9t0v1w2x3", "http://h/a/x", "http://h/s/a/b"]) {
      expect(String(light.shareLinkOf(text))).toBe(String(shareLinkOf(text)));
    }
    expect([light.ERROR_META_KEY, light.RPC_INTERNAL, light.RPC_UNAUTHENTICATED]).toEqual([ERROR_META_KEY, RPC_INTERNAL, RPC_UNAUTHENTICATED]);
  });

  it("cairn mcp explains a failed upstream call in words that say what to do", () => {
    const url = "http://127.0.0.1:7373";
    const said = (status: number, text: string) => explainStatus(status, `Error POSTing to endpoint: ${text}`, url);
    expect(said(401, '{"error":{"code":"unauthenticated"}}')).toEqual({
      unauthenticated: true,
      message: `the Cairn server at ${url} refused the token (401). Set CAIRN_TOKEN to a valid token, or check $CAIRN_HOME/credentials.`,
    });
    expect(said(503, '{"error":{"code":"unavailable"}}')).toMatchObject({ unavailable: true, message: expect.stringContaining("Try again shortly") });
    expect(said(404, "Not Found").message).toBe(`${url} has no MCP endpoint at /mcp (404). Is CAIRN_URL a Cairn server?`);
    expect(said(500, "Internal Server Error").message).toBe(
      `the Cairn server at ${url} answered HTTP 500: Streamable HTTP error: Error POSTing to endpoint: Internal Server Error`,
    );
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:7373"), { code: "ECONNREFUSED" });
    expect(explainError(new TypeError("fetch failed", { cause: refused }), url).message).toBe(
      `cannot reach the Cairn server at ${url} (ECONNREFUSED). Is \`cairn serve\` running there? Set CAIRN_URL to point at it.`,
    );
    expect(explainError(new Error("odd"), url).message).toBe(`cannot talk to the Cairn server at ${url}: odd`);
  });
});
