#!/usr/bin/env node
import { createRequire } from "node:module";
import { Command } from "commander";

// Keep this file light: every command imports what it needs when it runs.
const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

const program = new Command()
  .name("cairn")
  .description("Structured receipts from agents and scripts, and the server that keeps them.")
  .version(version, "-v, --version");

program
  .command("serve")
  .description("Run the Cairn server (REST API, docs) on HOST:PORT. Uses DATABASE_URL, or the embedded store in $CAIRN_HOME.")
  .action(async () => {
    const { runServe } = await import("./commands/serve.js");
    await runServe(version);
  });

program
  .command("mcp")
  .description("Serve MCP on stdio for an agent, forwarding to the Cairn server at CAIRN_URL with CAIRN_TOKEN (or $CAIRN_HOME/credentials).")
  .action(async () => {
    const { runMcp } = await import("./commands/mcp.js");
    await runMcp(version);
  });

program.parseAsync().catch((err: unknown) => {
  console.error(`cairn: ${(err as Error).message}`);
  process.exit(1);
});
