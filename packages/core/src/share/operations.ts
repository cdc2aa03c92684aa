import { z } from "zod";
import { readArtifactByShareToken } from "../artifact/read.js";
import { Artifact, ShareToken } from "../artifact/schemas.js";
import type { ServiceContext } from "../context.js";
import { validationFailed } from "../errors.js";
import { parseWith } from "../validation.js";

/**
 * What an operation that needs no principal is given: a share link is the whole
 * capability, so nobody is signed in. The clock is the core's, like every other verb's.
 */
export type LinkContext = Pick<ServiceContext, "store" | "config" | "surface" | "now">;

export interface LinkOperation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: I;
  output: O;
  mutates: false;
  invoke(ctx: LinkContext, raw: unknown): Promise<z.output<O>>;
}

function defineLinkOperation<I extends z.ZodType, O extends z.ZodType>(spec: {
  name: string;
  description: string;
  input: I;
  output: O;
  run(ctx: LinkContext, input: z.output<I>): Promise<z.output<O>>;
}): LinkOperation<I, O> {
  return {
    name: spec.name,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    mutates: false,
    async invoke(ctx, raw) {
      const parsed = parseWith(spec.input, raw ?? {});
      if (!parsed.ok) throw validationFailed(parsed.issues);
      return spec.run(ctx, parsed.value);
    },
  };
}

export const ShareReadInput = z.strictObject({
  token: ShareToken,
});

/** Reads that a link holder makes without signing in. */
export const SHARE_OPERATIONS = {
  share_read: defineLinkOperation({
    name: "share_read",
    description:
      "Read one artifact through its share link. The link is the capability: no sign-in, and the receipt it follows and the runs that produced it stay hidden.",
    input: ShareReadInput,
    output: Artifact,
    run: (ctx, input) => readArtifactByShareToken(ctx.store, ctx.config, input.token, ctx.now()),
  }),
} as const;

export type LinkOperationName = keyof typeof SHARE_OPERATIONS;
export type LinkOperationOutput<N extends LinkOperationName> = z.output<(typeof SHARE_OPERATIONS)[N]["output"]>;
