import { operationCommand } from "./define.js";

export const keysListCommand = operationCommand("keys_list", {
  words: ["keys", "list"],
  examples: ["cairn keys list", "cairn keys list --json > cairn-keys.json   # for cairn verify --keys"],
  human(jwks, printer) {
    if (jwks.keys.length === 0) printer.out("No signing key yet: the server makes one on start.");
    for (const [i, k] of jwks.keys.entries()) printer.out(`${k.kid}  ${k.crv}${i === 0 ? "  (active)" : "  (retired)"}`);
  },
});

export const keysRotateCommand = operationCommand("keys_rotate", {
  words: ["keys", "rotate"],
  examples: ["cairn keys rotate"],
  human(jwk, printer) {
    printer.out(`New signing key ${jwk.kid}. Older public keys stay listed at GET /v1/keys, so earlier exports still verify.`);
  },
});
