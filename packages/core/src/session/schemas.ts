import { z } from "zod";
import { storableId } from "../text.js";

export const SigninLinkCreateInput = z.strictObject({
  id: storableId(64, "An artifact id: the link lands on its page instead of the bin.").optional(),
});

export const SigninLink = z
  .strictObject({
    url: z.string().describe("The one-time link: open it in a browser to be signed in. It works once, within minutes."),
    expires_at: z.string().describe("ISO 8601 time after which the link no longer opens."),
    next: z.string().describe("Where the link lands once signed in: `/` (the bin) or `/a/<id>`."),
  })
  .meta({ id: "SigninLink", description: "A one-time sign-in link for the web, for the human token that asked for it." });
