import { describe, expect, it } from "vitest";
import { clientIdIssue, fetchClientDocument } from "../client-document.js";
import { cleanClientName } from "../client-fields.js";
import { redirectUriIssue } from "../redirect-uri.js";

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
