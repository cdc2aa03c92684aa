import { z } from "zod";
import { PAGE_FIELDS } from "../paging.js";
import { storableString, titleText } from "../text.js";
import { UserName } from "./names.js";

export const TokenKindSchema = z.enum(["human", "agent"]).describe("`human` for a person's token, `agent` for a token an agent or script uses.");

export const User = z
  .object({
    id: z.string().describe("User id."),
    name: z.string().describe("User name."),
    is_admin: z.boolean().describe("Whether the user administers this server."),
    created_at: z.string().describe("ISO 8601 creation time."),
  })
  .meta({ id: "User", description: "A user of this server." });
export type User = z.infer<typeof User>;

export const CreatedToken = z
  .object({
    id: z.string().describe("Token id."),
    name: z.string().describe("Token name."),
    kind: TokenKindSchema,
    user: z.string().describe("Name of the user the token acts for."),
    token: z.string().describe("The bearer token. Shown once; only its hash is stored."),
  })
  .meta({ id: "CreatedToken", description: "A newly minted bearer token." });
export type CreatedToken = z.infer<typeof CreatedToken>;

export const UserCreateInput = z.strictObject({
  name: UserName,
  is_admin: z.boolean().optional().describe("Make the new user an administrator. Defaults to false."),
});

export const UserCreateOutput = z
  .object({ user: User, token: CreatedToken })
  .meta({ id: "UserCreated", description: "The new user and its first human token (shown once)." });

export const TokenCreateInput = z.strictObject({
  name: titleText(100, "A name to recognise the token by, e.g. nightly-export."),
  kind: TokenKindSchema,
  user: UserName.optional().describe("The user the token acts for. Defaults to the caller; only admins mint for others."),
});

export const Me = z
  .object({
    user: User.omit({ created_at: true }),
    token: z.object({ id: z.string(), name: z.string(), kind: TokenKindSchema }).describe("The token in use."),
    teams: z.array(z.string()).describe("Teams the user belongs to."),
  })
  .meta({ id: "Me", description: "The caller as the server sees it." });

export const TokenSummary = z
  .object({
    id: z.string().describe("Token id: what `DELETE /v1/tokens/:id` and `cairn token revoke` take."),
    name: z.string().describe("Token name."),
    kind: TokenKindSchema,
    user: z.string().describe("Name of the user the token acts for."),
    created_at: z.string().describe("ISO 8601 time the token was minted."),
    revoked_at: z.string().nullable().describe("ISO 8601 time the token was revoked; null while it is valid."),
    current: z.boolean().describe("Whether this is the token making the request."),
  })
  .meta({ id: "TokenSummary", description: "A bearer token as listed: never its value, which only its holder has." });
export type TokenSummary = z.infer<typeof TokenSummary>;

export const TokenList = z
  .object({
    items: z.array(TokenSummary).describe("Tokens, newest first."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
  })
  .meta({ id: "TokenList", description: "One page of tokens." });

export const TokenListInput = z.strictObject({
  user: UserName.optional().describe("List another user's tokens (administrators only). Defaults to the caller."),
  ...PAGE_FIELDS,
});

export const TokenRevokeInput = z.strictObject({
  id: storableString()
    .regex(/^tok_[0-9a-z]{1,64}$/, "must be a token id (tok_…)")
    .describe("Id of the token to revoke (`tok_…`, from `GET /v1/tokens`)."),
});
