import { describe, expect, it } from "vitest";
import type { Principal } from "../context.js";
import { CairnError } from "../errors.js";
import { authenticate } from "../identity/tokens.js";
import { OPERATIONS, type OperationName, operationNames } from "../runtime/registry.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/**
 * SPEC §18, one row per operation: whether an agent token may call it. A total record,
 * so a new operation fails to compile here until someone decides.
 */
const AGENT_MAY: { readonly [N in OperationName]: boolean } = {
  receipt_create: true,
  artifact_create: true,
  artifact_read: true,
  artifact_a2ui: true,
  artifact_search: true,
  artifact_export: true,
  artifact_retain: false,
  artifact_assign: false,
  artifact_transfer: false,
  comment_create: true,
  comment_list: true,
  comment_delete: true,
  me: true,
  user_create: false,
  token_create: false,
  token_list: true,
  token_revoke: false,
  team_create: false,
  team_read: true,
  team_member_add: false,
  team_member_remove: false,
  team_invitation_list: true,
  team_invitation_accept: false,
  team_invitation_decline: false,
  team_leave: false,
  team_block: false,
  team_unblock: false,
  run_create: true,
  run_append_spans: true,
  run_close: true,
  run_read: true,
  run_list: true,
  run_delete: false,
  drops_list: true,
  drops_dismiss: false,
  doctor: true,
  status: true,
  policy_get: true,
  policy_set: false,
  subscription_create: false,
  channel_create: false,
  channel_list: false,
  channel_delete: false,
  channel_test: false,
  channel_deliveries: false,
  notifications_get: false,
  notifications_set: false,
  feed_key_rotate: false,
  subscription_list: true,
  subscription_read: true,
  subscription_delete: false,
  subscription_enable: false,
  subscription_deliveries: true,
  subscription_redeliver: false,
  subscription_recover: false,
  subscription_test: false,
  subscription_rotate_secret: false,
  // A model cannot tell a person it has been told (ADR 0017); it may see what waits on people.
  artifact_acknowledge: false,
  artifact_decide: false,
  decision_wait: true,
  inbox_list: true,
  outcomes_list: true,
  // Agents may read the public keys and verify; rotating the server's key is a person's act.
  keys_list: true,
  keys_rotate: false,
  receipt_verify: true,
  // A sign-in link is a way in to the web for a person (ADR 0018).
  signin_link_create: false,
};

// Permissions are checked before any storage is touched: one store is enough.
describe("agent tokens are narrower than human ones (SPEC §18)", () => {
  const fx = useTestWorld("pglite");

  async function agentOf(humanCtx: ReturnType<Awaited<ReturnType<typeof fx.world.user>>["ctx"]>): Promise<Principal> {
    const minted = await fx.world.cairn.invoke("token_create", humanCtx, { name: "claude", kind: "agent" });
    return (await authenticate(fx.store, minted.token)) ?? Promise.reject(new Error("agent token did not authenticate"));
  }

  it.each(operationNames())("%s: an agent token is refused exactly when it lacks the permission", async (name) => {
    const user = await fx.world.user();
    const agent = fx.world.cairn.context(await agentOf(user.ctx()), "mcp");
    const outcome = await fx.world.cairn.invoke(name, agent, {}).then(
      () => null,
      (err: unknown) => err as { code?: string; message?: string },
    );
    const refusedForPermission = outcome?.code === "forbidden" && outcome.message?.includes(OPERATIONS[name].permission) === true;
    expect(refusedForPermission, `${name} needs ${OPERATIONS[name].permission}`).toBe(!AGENT_MAY[name]);
    if (!AGENT_MAY[name]) expect(OPERATIONS[name].errors).toContain("forbidden");
  });

  it("an agent leaves receipts and runs but cannot change its owner's policy; the same user's human token can", async () => {
    const user = await fx.world.user();
    const agent = fx.world.cairn.context(await agentOf(user.ctx()), "mcp");
    const run = await fx.world.cairn.invoke("run_create", agent, { name: "nightly" });
    expect(run.id).toMatch(/^run_/);
    const err = await rejectionOf(fx.world.cairn.invoke("policy_set", agent, { require_evidence: true }));
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain("policy:write");
    const policy = await fx.world.cairn.invoke("policy_set", user.ctx(), { require_evidence: true });
    expect(policy.require_evidence).toBe(true);
  });

  it("an agent cannot mint a token even for itself; unreadable input to a verb it may not call is 403, not a drop", async () => {
    const user = await fx.world.user();
    const agent = fx.world.cairn.context(await agentOf(user.ctx()), "mcp");
    const err = await rejectionOf(fx.world.cairn.invoke("token_create", agent, { name: "more", kind: "agent" }));
    expect(err.message).toContain("tokens:write");
    const unreadable = new CairnError("validation_failed", "The request body is not valid JSON.");
    const refused = await rejectionOf(fx.world.cairn.refuseUnreadable("policy_set", agent, unreadable));
    expect(refused.message).toContain("policy:write");
    const status = await fx.world.cairn.invoke("status", user.ctx(), {});
    expect(Object.values(status.drops.counts).every((n) => n === 0)).toBe(true);
  });
});
