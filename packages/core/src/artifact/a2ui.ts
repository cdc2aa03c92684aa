import { z } from "zod";
import type { ServiceContext } from "../context.js";
import { CairnError } from "../errors.js";
import { type A2uiMessage, receiptA2uiMessages } from "../view/a2ui.js";
import { receiptRenderViewOf } from "../view/receipt-app.js";
import { readArtifact } from "./read.js";

/** A2UI v0.9.1 messages: createSurface, updateComponents, updateDataModel, in that order. */
export const A2uiMessages = z
  .array(
    z
      .looseObject({ version: z.literal("v0.9.1").describe("The A2UI revision the message follows.") })
      .describe("One A2UI message: exactly one of createSurface, updateComponents or updateDataModel beside `version`."),
  )
  .describe(
    "The receipt's card as A2UI v0.9.1 messages over the basic catalog (Card, Column, Row, Text, List, Divider, Button with openUrl): labels in the components, the receipt's values in the data model, in the web card's order.",
  );

/**
 * A receipt's A2UI rendering, by the same read rule as artifact_read: another owner's
 * receipt reads as not found, an expired one as gone. Only receipts have one.
 */
export async function readArtifactA2ui(ctx: ServiceContext, input: { id: string }): Promise<A2uiMessage[]> {
  const artifact = await readArtifact(ctx, input);
  const view = receiptRenderViewOf(artifact, ctx.config.publicUrl, ctx.now());
  if (view === null) throw new CairnError("not_found", `${artifact.id} is not a receipt: only receipts have an A2UI rendering. Read it with artifact_read.`);
  return receiptA2uiMessages(view);
}
