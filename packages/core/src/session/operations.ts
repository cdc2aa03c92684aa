import { defineOperation } from "../operations/define.js";
import { createSigninLink, SIGNIN_LINK_TTL_MINUTES } from "./links.js";
import { SigninLink, SigninLinkCreateInput } from "./schemas.js";

/** The web sign-in a terminal can hand to a browser (SPEC §22). */
export const SESSION_OPERATIONS = {
  signin_link_create: defineOperation({
    // A way in to the web for a person (SPEC §22): a model holding its user's token must not open a browser as them.
    notOn: { mcp: "signing a person in to the web is for people" },
    title: "Sign-in link",
    description: `A one-time link that signs you in to the web (human tokens only), landing on the bin or on one artifact. It works once, within ${SIGNIN_LINK_TTL_MINUTES} minutes; \`cairn open\` prints it and opens a browser.`,
    input: SigninLinkCreateInput,
    output: SigninLink,
    mutates: true,
    permission: "sessions:write",
    errors: ["forbidden", "not_found", "gone"],
    run: createSigninLink,
  }),
} as const;
