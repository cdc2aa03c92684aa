import { describe, expect, it } from "vitest";
import { clientIdIssue, fetchClientDocument } from "../client-document.js";
import { cleanClientName } from "../client-fields.js";
import { CallerLimiter, callerKey } from "../rate-limit.js";
import { redirectUriIssue, redirectUriMatches } from "../redirect-uri.js";

describe("what a client may name (SPEC §26)", () => {
  it.each([
    ["https://app.example/cb", null],
    ["http://127.0.0.1:4242/callback", null],
    ["http://[::1]:4242/callback", null],
    ["http://localhost/callback", null],
    ["http://app.example/cb", "must be https, or http on a loopback address (127.0.0.1, [::1], localhost)"],
    ["http://127.0.0.1.evil.example/cb", "must be https, or http on a loopback address (127.0.0.1, [::1], localhost)"],
    ["javascript:alert(1)", "must be https, or http on a loopback address (127.0.0.1, [::1], localhost)"],
    ["https://app.example/cb#frag", "must not have a fragment"],
    ["https://user:pw@app.example/cb", "must not carry credentials"],
    ["/relative", "is not an absolute URL"],
    ["https://app.example/x\u0000y", "contains a character that cannot be stored"],
    ["https://app.example/x\ud800y", "contains a character that cannot be stored"],
    [`https://app.example/${"a".repeat(2000)}`, "is longer than 2000 characters"],
  ])("redirect URI %# → %s", (uri, issue) => {
    expect(redirectUriIssue(uri)).toBe(issue);
  });

  it.each([
    ["https://app.example/oauth/client.json", null],
    ["http://app.example/client.json", "must be an https URL"],
    ["https://app.example/", "must have a path"],
    ["https://app.example/c.json#x", "must not have a fragment"],
    ["https://a:b@app.example/c.json", "must not carry credentials"],
    ["https://app.example/a/../c.json", "must not have . or .. segments"],
    ["https://app.example/./c.json", "must not have . or .. segments"],
  ])("metadata document client id %s → %s", (id, issue) => {
    expect(clientIdIssue(id)).toBe(issue);
  });

  it("refuses a document on a loopback or private address before connecting, unless the operator vouched for it (§37)", async () => {
    await expect(fetchClientDocument("https://127.0.0.1:9/client.json", { allowPrivate: false })).rejects.toMatchObject({
      name: "DocumentUnavailable",
      message: expect.stringContaining("loopback, private or link-local"),
    });
    await expect(fetchClientDocument("https://10.1.2.3/client.json", { allowPrivate: false })).rejects.toMatchObject({ name: "DocumentUnavailable" });
    // Vouched for, the same address is tried (port 9 is closed): the failure is the connection's, not the address rule's.
    await expect(fetchClientDocument("https://127.0.0.1:9/client.json", { allowPrivate: true })).rejects.toMatchObject({
      message: expect.stringContaining("the connection failed"),
    });
  });

  it("shows a client's name on one line, without control or direction-changing characters, at most 100 characters", () => {
    expect(cleanClientName("Claude\u202e\u0000 evil\nname", "fallback")).toBe("Claude evil name");
    expect(cleanClientName("  ", "fallback")).toBe("fallback");
    expect(cleanClientName(42, "fallback")).toBe("fallback");
    expect(cleanClientName("x".repeat(300), "f")).toHaveLength(100);
  });
});

describe("loopback redirect URIs and callers (SPEC §37)", () => {
  it.each([
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1:1/cb", true],
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1/cb", true],
    ["http://[::1]/cb", "http://[::1]:65535/cb", true],
    ["http://localhost:1/cb?a=1", "http://localhost:2/cb?a=1", true],
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1:0/cb", false],
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1:65536/cb", false],
    ["http://127.0.0.1:4242/cb", "http://localhost:4242/cb", false],
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1:4242/cb2", false],
    ["http://127.0.0.1:4242/cb", "http://127.0.0.1:80@evil.example/cb", false],
    ["https://127.0.0.1:4242/cb", "https://127.0.0.1:4243/cb", false],
    ["https://app.example/cb", "https://app.example:444/cb", false],
  ])("registered %s, asked %s → %s", (registered, asked, matches) => {
    expect(redirectUriMatches([registered], asked)).toBe(matches);
  });

  it("counts an IPv6 caller by its /64 and an IPv4 one inside IPv6 as itself", () => {
    expect(callerKey("2001:db8:1:2:aaaa::1")).toBe(callerKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    expect(callerKey("2001:db8:1:2::1")).not.toBe(callerKey("2001:db8:1:3::1"));
    expect(callerKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    const limiter = new CallerLimiter({ burst: 2, perHour: 3600 });
    expect(limiter.take("192.0.2.7", 0)).toBeNull();
    expect(limiter.take("::ffff:192.0.2.7", 0)).toBeNull();
    expect(limiter.take("192.0.2.7", 0)).toEqual({ retryAfterSeconds: 1 });
    expect(limiter.take("192.0.2.8", 0)).toBeNull();
    expect(limiter.take("192.0.2.7", 1_000)).toBeNull();
  });
});
