import { defineOperation } from "../operations/define.js";
import { listTokens, revokeToken } from "./revoke.js";
import { TokenList, TokenListInput, TokenRevokeInput, TokenSummary } from "./schemas.js";

/** Token administration beyond minting (SPEC §18): list without values, revoke. */
export const IDENTITY_OPERATIONS = {
  token_list: defineOperation({
    name: "token_list",
    description:
      "List your tokens, newest first: id, name, kind, when minted and whether revoked. Never their values. Administrators may pass `user` to list someone else's.",
    input: TokenListInput,
    output: TokenList,
    mutates: false,
    run: listTokens,
  }),
  token_revoke: defineOperation({
    name: "token_revoke",
    description:
      "Revoke a token by id: its next request is refused (401) everywhere. Yours, or anyone's as an administrator. Revoking a revoked token changes nothing.",
    input: TokenRevokeInput,
    output: TokenSummary,
    mutates: true,
    run: revokeToken,
  }),
} as const;
