import { operationCommand } from "./define.js";

export const tokenCreateCommand = operationCommand("token_create", {
  words: ["token", "create"],
  args: [{ field: "name", name: "NAME" }],
  options: [
    { field: "kind", flags: "--kind <kind>" },
    { field: "user", flags: "--user <user>" },
  ],
  examples: [
    "cairn token create nightly-export --kind agent",
    "CAIRN_TOKEN=$(cairn token create ci --kind agent --user dana)   # the token alone is on stdout",
  ],
  // The token alone goes to stdout, so `$(cairn token create …)` captures it.
  human(token, printer) {
    printer.err(`Token "${token.name}" (${token.kind}) for ${token.user}, shown once:`);
    printer.out(token.token);
  },
});

export const tokenListCommand = operationCommand("token_list", {
  words: ["token", "list"],
  options: [
    { field: "user", flags: "--user <user>" },
    { field: "limit", flags: "--limit <n>" },
    { field: "cursor", flags: "--cursor <cursor>" },
  ],
  examples: ["cairn token list", "cairn token list --user dana --json"],
  human(page, printer) {
    if (page.items.length === 0) printer.err("No tokens.");
    for (const t of page.items) {
      const state = t.revoked_at ? `revoked ${t.revoked_at.slice(0, 10)}` : "active";
      printer.out(`${t.id}  ${t.kind.padEnd(5)}  created ${t.created_at.slice(0, 10)}  ${state.padEnd(18)}  ${t.name}${t.current ? "  (this token)" : ""}`);
    }
    if (page.next_cursor) printer.err(`More: cairn token list --cursor ${page.next_cursor}`);
  },
});

export const tokenRevokeCommand = operationCommand("token_revoke", {
  words: ["token", "revoke"],
  args: [{ field: "id", name: "ID" }],
  examples: ["cairn token revoke tok_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human(t, printer) {
    printer.out(`Revoked token ${t.id} ("${t.name}", ${t.kind}, for ${t.user}) at ${t.revoked_at ?? "-"}: its next request is refused.`);
  },
});
