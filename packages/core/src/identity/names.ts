import type { z } from "zod";
import { storableString } from "../text.js";

const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const UserName = storableString()
  .regex(NAME_PATTERN, "must be 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit")
  .describe("A user name: lowercase letters, digits, '.', '_' or '-', at most 64 characters.");

export const TeamName = UserName.describe("A team name: lowercase letters, digits, '.', '_' or '-', at most 64 characters.");

/** SPEC §20: the one user who must act, a bare user name who may read the artifact. Not part of the body. */
export const AssigneeName = UserName.describe(
  "Who must act on it: a bare user name such as `sam` (not `user:sam`) who may read it — the owner user or a member of the owner team. Not part of the body.",
);

export const OwnerRef = storableString()
  .regex(/^(user|team):[a-z0-9][a-z0-9._-]{0,63}$/, "must be user:NAME or team:NAME")
  .describe("Who owns the artifact: `user:NAME` or `team:NAME`. Defaults to the calling user. Creating for a team requires membership.");
export type OwnerRef = z.infer<typeof OwnerRef>;

export type ParsedOwner = { kind: "user" | "team"; name: string };

export function parseOwner(owner: string): ParsedOwner {
  const [kind, name] = owner.split(":", 2) as ["user" | "team", string];
  return { kind, name };
}
