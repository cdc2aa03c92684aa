import { operationCommand } from "./define.js";

export const userCreateCommand = operationCommand("user_create", {
  words: ["user", "create"],
  args: [{ field: "name", name: "NAME" }],
  options: [{ field: "is_admin", flags: "--admin" }],
  examples: ["cairn user create dana", "TOKEN=$(cairn user create dana)   # the token alone is on stdout"],
  // The token alone goes to stdout, so `$(cairn user create NAME)` captures it.
  human(made, printer) {
    const admin = made.user.is_admin ? " (administrator)" : "";
    printer.err(`Created user ${made.user.name}${admin}. Their human token, shown once:`);
    printer.out(made.token.token);
  },
});
