import { z } from "zod";
import { defineOperation } from "../operations/define.js";
import { CreatedToken, Me, TokenCreateInput, UserCreateInput, UserCreateOutput } from "./schemas.js";
import { createToken, createUser, describeMe } from "./users.js";

/** Who you are, and the users and tokens that let people and agents in. */
export const IDENTITY_OPERATIONS = {
  me: defineOperation({
    title: "Who am I",
    description: "Who the server thinks you are: user, token and teams.",
    input: z.strictObject({}),
    output: Me,
    mutates: false,
    run: describeMe,
  }),
  user_create: defineOperation({
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
    title: "Mint a token",
    description: "Mint a bearer token for yourself (or, as an administrator, for another user). Shown once.",
    input: TokenCreateInput,
    output: CreatedToken,
    mutates: true,
    permission: "tokens:write",
    errors: ["forbidden", "not_found"],
    run: createToken,
  }),
} as const;
