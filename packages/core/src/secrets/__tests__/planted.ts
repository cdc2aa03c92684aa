// Planted secrets, assembled at run time so no scanner flags this file itself.
// Each is shaped like the real thing, never a live credential.
const j = (...parts: string[]) => parts.join("");

export const PLANTED = {
  ghp: j("ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"),
  githubPat: j("github_pat_", "11ABCDEFG0123456789abc", "_", "Zyx9".repeat(14), "abc"),
  slackToken: j("xoxb-", "123456789012-1234567890123-", "AbCdEfGhIjKlMnOpQrStUvWx"),
  slackWebhook: j("https://hooks.slack.com/services/", "T0ABCDEFG/B0ABCDEFG/", "AbCdEfGhIjKlMnOpQrStUvWx"),
  awsKeyId: j("AKIA", "ZQWERTYUIOPASDF2"),
  awsSecret: j("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYzzq1w2e3r4"),
  basicAuthPassword: j("hunter2", "-pass-", "word"),
  npm: j("npm_", "abcdefghijklmnopqrstuvwxyz", "0123456789"),
  openai: j("sk-proj-", "Ab1".repeat(24), "xy", "T3BlbkFJ", "Cd2".repeat(24), "zw"),
  anthropic: j("sk-ant-api03-", "Ab1Cd2".repeat(15), "Ef1", "AA"),
  rsaKeyBody: j("MIIEowIBAAKCAQEA", "abcdEFGH0123+/".repeat(10)),
  random: j("q8Vf2LxR9mZ", "t4WbN7kPc3Ys6Hd"),
};

export const rsaKey = () => `-----BEGIN RSA PRIVATE KEY-----\n${PLANTED.rsaKeyBody}\n-----END RSA PRIVATE KEY-----`;
