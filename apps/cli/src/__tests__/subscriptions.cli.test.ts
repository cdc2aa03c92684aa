import { createTestHome, eventually, runNode, startReceiver } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { cliUser, runCli, startCliServer } from "./cli-process.js";
import { CLI_BIN } from "./serve-process.js";

// Adapter test on one store: the delivery rules are tested on both in core.
describe("cairn subscribe, subscriptions and deliveries against cairn serve", () => {
  it("subscribes with an event filter, lists without the secret, and shows the delivery attempts", async () => {
    const server = await startCliServer("pglite");
    const receiver = await startReceiver();
    try {
      const sam = await cliUser(server, "sam");
      const sub = await runCli(["subscribe", receiver.url, "--events", "artifact.created", "receipt.dropped"], { env: sam.env });
      expect(sub.code, sub.stderr).toBe(0);
      // The secret on a line of its own, so it can be copied whole (SPEC §24).
      expect(sub.stdout).toMatch(/Signing secret \(shown once; verify deliveries with it\):\nwhsec_[A-Za-z0-9+/=]+\n/);
      const id = /Subscribed (sub_[0-9a-z]+)/.exec(sub.stdout)?.[1] as string;

      const listed = await runCli(["subscriptions", "--json"], { env: sam.env });
      expect(listed.json.items).toHaveLength(1);
      expect(listed.json.items[0]).toMatchObject({ id, events: ["artifact.created", "receipt.dropped"], enabled: true });
      expect(listed.stdout).not.toContain("whsec_");

      await server.rest("POST", "/v1/artifacts", sam.token, { title: "Hello", body: "x" });
      await receiver.waitFor(1);
      const shown = await eventually(async () => {
        const d = await runCli(["deliveries", id], { env: sam.env });
        return d.stdout.includes("HTTP 200") && d;
      });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/evt_[0-9a-z]+ artifact.created #1 {2}HTTP 200/);

      expect(shown.stderr).toContain("--view events");
      const states = await runCli(["deliveries", id, "--view", "events"], { env: sam.env });
      expect(states.code, states.stderr).toBe(0);
      expect(states.stdout).toMatch(/evt_[0-9a-z]+ {2}artifact.created {2}Delivered · 1 attempt\n/);

      const test = await runCli(["subscription", "test", id], { env: sam.env });
      expect(test.code, test.stderr).toBe(0);
      expect(test.stdout).toMatch(/Queued webhook.test event evt_[0-9a-z]+/);
      await receiver.waitFor(2);
      const rotated = await runCli(["subscription", "rotate-secret", id], { env: sam.env });
      expect(rotated.code, rotated.stderr).toBe(0);
      // The secret on a line of its own, then every secret still signing and until when (SPEC §24).
      expect(rotated.stdout).toMatch(/New signing secret for sub_[0-9a-z]+ \(shown once\):\nwhsec_\S+\n/);
      expect(rotated.stdout).toMatch(/the secret replaced at \d{4}-\d\d-\d\d \d\d:\d\d UTC, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      const again = await runCli(["subscription", "rotate-secret", id], { env: sam.env });
      expect(again.stdout.match(/the secret replaced at/g)).toHaveLength(2);
      const refused = await runCli(["subscription", "rotate-secret", id], { env: sam.env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/already signs with 3 secrets.*stops signing at/);
      const show = await runCli(["subscription", "show", id], { env: sam.env });
      expect(show.stdout).toContain(`created by ${sam.name} at `);
      expect(show.stdout).toMatch(/\(user:[^;]+; ok: Delivering\)/);
      expect(show.stdout).toMatch(/ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n/);
      // Enabling says how to resend what was missed while it was off.
      const enabled = await runCli(["subscription", "enable", id], { env: sam.env });
      expect(enabled.code, enabled.stderr).toBe(0);
      expect(enabled.stdout).toContain(`cairn subscription recover ${id} --since`);
      expect(show.stdout).not.toContain("whsec_");

      const help = await runCli(["subscription", "--help"], { env: sam.env });
      for (const word of ["show", "delete", "enable", "redeliver", "recover", "test", "rotate-secret"]) expect(help.stdout).toContain(word);
    } finally {
      await receiver.close();
      await server.stop();
    }
  }, 60_000);
});

describe("cairn worker", () => {
  it("refuses the embedded store, which belongs to the one cairn serve", async () => {
    const { home, dispose } = await createTestHome("pglite");
    try {
      const { DATABASE_URL: _unset, ...env } = process.env;
      const run = await runNode([CLI_BIN, "worker"], { env: { ...env, CAIRN_HOME: home } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("cairn worker needs DATABASE_URL");
    } finally {
      await dispose();
    }
  });
});
