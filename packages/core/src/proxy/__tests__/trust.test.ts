import { describe, expect, it } from "vitest";
import { parseTrustProxy, resolveForwarded } from "../trust.js";

describe("CAIRN_TRUST_PROXY", () => {
  it.each([
    ["loopback", "127.0.0.1", true],
    ["loopback", "::ffff:127.0.0.9", true],
    ["loopback", "::1", true],
    ["loopback", "10.0.0.1", false],
    ["10.0.0.0/8, fd00::/8", "10.200.3.4", true],
    ["10.0.0.0/8, fd00::/8", "fd12::1", true],
    ["10.0.0.0/8, fd00::/8", "11.0.0.1", false],
    ["192.0.2.10", "192.0.2.10", true],
    ["192.0.2.10", "192.0.2.11", false],
  ])("%s trusts %s: %s", (raw, address, trusted) => {
    expect(parseTrustProxy(raw)?.trusts(address)).toBe(trusted);
  });

  it("unset or empty trusts nobody; a bad entry is refused by name", () => {
    expect(parseTrustProxy(undefined)).toBeUndefined();
    expect(parseTrustProxy(" , ")).toBeUndefined();
    for (const bad of ["10.0.0.0/33", "example.com", "10.0.0.1/8/2", "10.0.0.0/x", "::1/129"]) {
      expect(() => parseTrustProxy(`loopback,${bad}`)).toThrow(`CAIRN_TRUST_PROXY: ${JSON.stringify(bad)} is not an IP address`);
    }
  });

  it("takes X-Forwarded-* only from a trusted peer, and the client is the first untrusted hop from the right", () => {
    const trust = parseTrustProxy("loopback,10.0.0.0/8");
    // A client that forges the headers straight to the server is its own address, over http.
    expect(resolveForwarded(trust, "203.0.113.7", "1.2.3.4", "https")).toEqual({ client: "203.0.113.7", proto: undefined });
    expect(resolveForwarded(undefined, "127.0.0.1", "1.2.3.4", "https")).toEqual({ client: "127.0.0.1", proto: undefined });
    // Through two trusted proxies; what the client itself prepended is not believed.
    expect(resolveForwarded(trust, "::ffff:127.0.0.1", "6.6.6.6, 198.51.100.2, 10.1.1.1", "http, https")).toEqual({ client: "198.51.100.2", proto: "https" });
    // Only trusted hops: the leftmost is the client.
    expect(resolveForwarded(trust, "127.0.0.1", "10.0.0.5", "https")).toEqual({ client: "10.0.0.5", proto: "https" });
    expect(resolveForwarded(trust, "127.0.0.1", "not-an-address", "gopher")).toEqual({ client: "127.0.0.1", proto: undefined });
  });
});
