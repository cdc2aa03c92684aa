import type { Artifact } from "@cairn/core";
import type { HttpAnswer } from "../client/transport.js";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import { printArtifact } from "../format.js";
import { shareLinkOf } from "../light.js";
import { printerFor } from "../output.js";
import { printComment } from "./comment-lines.js";
import { type CommandContext, fail, type OperationHandling, runWithClient } from "./run.js";

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

/** Comments a person reading a receipt in the terminal sees under it (`cairn comments ID` pages further). */
const COMMENTS_SHOWN = 50;

/**
 * A read by id, for a person: the artifact, then its comments oldest first (SPEC §34).
 * With --json the answer is the artifact object alone, as on every surface.
 */
async function readWithComments(input: Record<string, unknown>, ctx: CommandContext, json: boolean): Promise<boolean> {
  if (await readShareLink(input, ctx, json)) return true;
  if (json) return false;
  await runWithClient(ctx, json, async (client, printer) => {
    const artifact = await client.call("artifact_read", input);
    printArtifact(artifact.data, printer);
    const comments = await client.call("comment_list", { id: artifact.data.id, limit: COMMENTS_SHOWN });
    if (comments.data.items.length === 0) return;
    printer.out("");
    printer.out(`Comments (${comments.data.items.length}${comments.data.next_cursor ? "+" : ""}):`);
    for (const c of comments.data.items) printComment(c, printer);
    if (comments.data.next_cursor) printer.out(`More: cairn comments ${artifact.data.id} --cursor ${comments.data.next_cursor}`);
  });
  return true;
}

/** How `cairn read` answers, apart from its command line: shared by the command (read.ts) and the quick path (quick.ts). */
export const READ_HANDLING: OperationHandling<"artifact_read"> = { human: printArtifact, answer: readWithComments };
