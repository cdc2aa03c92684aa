import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mayHoldSecret, PREFILTER_TRIGGERS } from "../prefilter.js";
import { runSecretlint } from "../secretlint.js";
import { PLANTED, rsaKey } from "./planted.js";

// Assembled at run time so no scanner flags this file itself; shaped like the real thing, never live.
const j = (...parts: string[]) => parts.join("");
const alnum = (n: number, seed = 7) => {
  const chars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  let s = "";
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += chars[x % chars.length];
  }
  return s;
};
const hex = (n: number) => "0123456789abcdef".repeat(Math.ceil(n / 16)).slice(0, n);

/** base64 of a JSON object whose length leaves `}` alone in the last group: it ends in `fQ==`, as the rule expects. */
const onePasswordBody = () => {
  let json = JSON.stringify({ email: "svc@example.lcl", secretKey: alnum(40, 5), pad: "" });
  while (json.length % 3 !== 1) json = json.replace('"pad":"', '"pad":"x');
  return Buffer.from(json).toString("base64");
};

const pem = () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
  return privateKey.export({ type: "pkcs1", format: "pem" }).toString();
};

/** One planted secret per rule of the preset, in a sentence as an agent would write it. */
const PLANTS: Record<string, string[]> = {
  aws: [`key id ${PLANTED.awsKeyId} in the config`, j("aws_secret_access_", "key = ", PLANTED.awsSecret), j("AWS_ACCOUNT", "_ID: 1234-5678-9012")],
  privatekey: [rsaKey(), pem()],
  npm: [`token ${PLANTED.npm} for the registry`],
  basicauth: [j("cloned https://deploy:", PLANTED.basicAuthPassword, "@git.example.org/repo.git")],
  slack: [PLANTED.slackToken, PLANTED.slackWebhook],
  sendgrid: [j("SG", ".", alnum(22), ".", alnum(43, 3))],
  shopify: [j("shp", "at_", hex(32))],
  stripe: [j("sk_", "live_", alnum(24))],
  github: [PLANTED.ghp, PLANTED.githubPat],
  gitlab: [j("glp", "at-", alnum(20))],
  grafana: [j("gl", "sa_", alnum(32), "_", hex(8))],
  openai: [PLANTED.openai],
  anthropic: [PLANTED.anthropic],
  groq: [j("gs", "k_", alnum(52))],
  huggingface: [j("h", "f_", "abcdefghijklmnopqrstuvwxyzABCDEFGH")],
  linear: [j("lin_", "api_", alnum(40))],
  notion: [j("nt", "n_", "12345678901", alnum(35))],
  "1password": [j("op", "s_", onePasswordBody())],
  "database-connection-string": [j("postgres", "://app:Zq8vLw3pRt@db.internal:5432/app"), j("MONGODB", "://root:Xk2mQp9wLs@mongo.internal/admin")],
  "hashicorp-vault": [j("hv", "s.", alnum(95))],
  vercel: [j("vc", "p_", alnum(24))],
  databricks: [j("da", "pi", hex(32))],
  docker: [j("dckr", "_pat_", alnum(27))],
  figma: [j("fi", "gd_", alnum(40))],
  cloudflare: [j("cf", "at_", alnum(40), hex(8))],
  tailscale: [j("tskey", "-api-", alnum(12), "-", alnum(24))],
};

const ruleIds = async () => {
  const { rules } = (await import("@secretlint/secretlint-rule-preset-recommend")) as unknown as { rules: Array<{ meta: { id: string } }> };
  return rules.map((r) => r.meta.id.replace("@secretlint/secretlint-rule-", ""));
};

describe("the secret prefilter (exact for secretlint's recommended preset)", () => {
  it("names every rule of the installed preset, and no other", async () => {
    expect(Object.keys(PREFILTER_TRIGGERS).sort()).toEqual((await ruleIds()).sort());
  });

  it("lets through a planted secret of every rule that can fire, and secretlint reports each", async () => {
    const firing = Object.entries(PREFILTER_TRIGGERS)
      .filter(([, t]) => !t.never)
      .map(([rule]) => rule);
    expect(Object.keys(PLANTS).sort()).toEqual(firing.sort());
    for (const [rule, secrets] of Object.entries(PLANTS)) {
      for (const secret of secrets) {
        const text = `Rotated the credentials.\n${secret}\nNothing else changed.`;
        expect(mayHoldSecret(text), `${rule}: ${secret.slice(0, 12)}…`).toBe(true);
        const rules = (await runSecretlint(text)).map((f) => f.rule);
        expect(rules, `${rule}: ${secret.slice(0, 12)}…`).toContain(rule);
      }
    }
  });

  it("a rule that never fires on the scanner's texts really does not (gcp: a service-account key as JSON)", async () => {
    const key = JSON.stringify({ type: "service_account", private_key_id: hex(40), private_key: pem() });
    expect((await runSecretlint(key)).filter((f) => f.rule === "gcp")).toEqual([]);
  });

  it("never says no where secretlint finds something: random texts built from the triggers' pieces", async () => {
    const pieces = [
      ...Object.values(PLANTS).flat(),
      ...Object.values(PREFILTER_TRIGGERS).flatMap((t) => [...(t.literals ?? []), ...(t.folded ?? [])]),
      "://",
      "@",
      " ",
      "\n",
      "=",
      ":",
      "-",
      "_",
      alnum(40, 11),
      hex(32),
      "user:pass",
      "https",
      "Secret",
      "ACCESS",
      "KEY",
    ];
    let x = 42;
    const next = (n: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    let flagged = 0;
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 1 + next(6) }, () => {
        const piece = pieces[next(pieces.length)] as string;
        // Cut some pieces so partial triggers appear too.
        return next(3) === 0 ? piece.slice(0, 1 + next(piece.length)) : piece;
      }).join(next(2) ? " " : "");
      const found = await runSecretlint(text);
      if (found.length > 0) {
        flagged++;
        expect(mayHoldSecret(text), text).toBe(true);
      }
    }
    expect(flagged).toBeGreaterThan(50);
  });

  it("skips the plain words of an ordinary receipt", () => {
    expect(mayHoldSecret("Nightly invoice export now retries failed uploads. See https://ci.example.com/runs/4812.")).toBe(false);
  });
});
