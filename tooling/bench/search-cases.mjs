import { seedReceipts } from "./seed.mjs";

/** Search with no filter and with each filter alone, as the bench and the plans measure them. */
export function searchCases(owner) {
  return [
    ["no filter", {}],
    ["q (1% match)", { q: "needleword" }],
    ["tag", { tag: "finance" }],
    ["owner", { owner }],
    ["schema", { schema: "cairn.receipt/v1" }],
    ["human_action=needed", { human_action: "needed" }],
    ["human_action=none", { human_action: "none" }],
    ["outcome=pending", { outcome: "pending" }],
    ["outcome=overdue", { outcome: "overdue" }],
    ["measure_before", { measure_before: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) }],
    ["created_after 7 days ago", { created_after: new Date(Date.now() - 7 * 86_400_000).toISOString() }],
    ["created_before 170 days ago", { created_before: new Date(Date.now() - 170 * 86_400_000).toISOString() }],
    ["fields=summary", { fields: "summary" }],
    ["q + human_action + overdue", { q: "needleword", human_action: "needed", outcome: "overdue" }],
  ];
}

/**
 * A user in one team, with `count` receipts split between the user and the team (what
 * the user can read) and as many again for a stranger (what must never show).
 */
export async function seededWorld(store, createTestWorld, count, { onProgress, analyze } = {}) {
  const world = await createTestWorld(store);
  const sam = await world.user("sam");
  const stranger = await world.user("eve");
  const team = await world.team([sam], "crew");
  const owners = [`user:${sam.name}`, team, `user:${stranger.name}`, `user:${stranger.name}`];
  await seedReceipts(store, { count, owners, onProgress, analyze });
  return { world, sam, owners, ctx: { cairn: world.cairn, ctx: sam.ctx() } };
}
