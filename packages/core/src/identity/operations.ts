import { z } from "zod";
import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { listTokens, revokeToken } from "./revoke.js";
import { CreatedToken, Me, TokenCreateInput, TokenList, TokenListInput, TokenRevokeInput, TokenSummary, UserCreateInput, UserCreateOutput } from "./schemas.js";
import { createToken, createUser, describeMe } from "./users.js";

/** This area's group in the API documentation. */
export const IDENTITY_TAG = defineApiTag("Identity", "Who you are, and the users and tokens that let people and agents in.");

/** Who you are, and the users and tokens that let people and agents in (SPEC §18). */
export const IDENTITY_OPERATIONS = {
  me: defineOperation({
    notOn: { mcp: "administration" },
    title: "Who am I",
    description: "Who the server thinks you are: user, token and teams.",
    input: z.strictObject({}),
    output: Me,
    mutates: false,
    run: describeMe,
  }),
  user_create: defineOperation({
    notOn: { mcp: "administration" },
    title: "Create a user",
    description: "Create a user and its first human token (administrators only). The token is shown once.",
    input: UserCreateInput,
    output: UserCreateOutput,
    mutates: true,
    permission: "users:write",
    errors: ["forbidden"],
    run: createUser,
  }),
  token_create: defineOperation({
    notOn: { mcp: "administration" },
    title: "Mint a token",
    description: "Mint a bearer token for yourself (or, as an administrator, for another user). Shown once.",
    input: TokenCreateInput,
    output: CreatedToken,
    mutates: true,
    permission: "tokens:write",
    errors: ["forbidden", "not_found"],
    run: createToken,
  }),
  token_list: defineOperation({
    notOn: { mcp: "administration" },
    title: "List tokens",
    description:
      "List your tokens, newest first: id, name, kind, when minted and whether revoked. Never their values. Administrators may pass `user` to list someone else's.",
    input: TokenListInput,
    output: TokenList,
    mutates: false,
    errors: ["forbidden", "not_found"],
    run: listTokens,
  }),
  token_revoke: defineOperation({
    notOn: { mcp: "administration" },
    title: "Revoke a token",
    description:
      "Revoke a token by id: its next request is refused (401) everywhere. Yours, or anyone's as an administrator. Revoking a revoked token changes nothing.",
    input: TokenRevokeInput,
    output: TokenSummary,
    mutates: true,
    idempotent: true,
    destructive: true,
    permission: "tokens:write",
    errors: ["forbidden", "not_found"],
    run: revokeToken,
  }),
} as const;
