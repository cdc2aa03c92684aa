import type { Artifact } from "@cairn/core";
import type { HttpAnswer } from "../client/transport.js";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import { printArtifact } from "../format.js";
import { shareLinkOf } from "../light.js";
import { printerFor } from "../output.js";
import { operationCommand } from "./define.js";
import { type CommandContext, fail } from "./run.js";

/**
 * A share link is read the way its holder may read it: from the link's own server,
 * without sending any token (the link is the capability), as the artifact object.
 */
async function readShareLink(input: Record<string, unknown>, ctx: CommandContext, json: boolean): Promise<boolean> {
  const link = typeof input.id === "string" ? shareLinkOf(input.id) : null;
  if (!link) return false;
  try {
    let res: HttpAnswer;
    try {
      res = await ctx.fetch(link, { headers: { accept: "application/json", "user-agent": `cairn/${ctx.version}` } });
    } catch {
      throw new CliFailure(EXIT.unreachable, `cannot reach ${link.origin}.`);
    }
    const text = await res.text();
    let body: { error?: Parameters<typeof CliFailure.fromError>[0] } & Partial<Artifact>;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CliFailure(EXIT.server, `${link.origin} did not answer like a Cairn server (HTTP ${res.status}).`);
    }
    if (body.error) throw CliFailure.fromError(body.error, text);
    const printer = printerFor(ctx.io, json);
    if (json) printer.out(text);
    else printArtifact(body as Artifact, printer);
    ctx.exitCode = EXIT.ok;
  } catch (err) {
    fail(ctx, err, json);
  }
  return true;
}

export const readCommand = operationCommand("artifact_read", {
  words: ["read"],
  args: [{ field: "id", name: "ID" }],
  summary: "Read one artifact: by id (yours or your team's), or by the share link you were given.",
  examples: [
    "cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3",
    "cairn read http://127.0.0.1:7373/s/Xk3…   # a share link: read as its holder, no token sent",
    "cairn read art_06h2k3m4n5p6q7r8s9t0v1w2x3 --json | jq .metadata.human_action",
  ],
  human: printArtifact,
  answer: readShareLink,
});
