import { describe, expect, it } from "vitest";
import { embeddedIpv4, isPrivateAddress } from "../targets.js";

describe("private targets (SPEC §19)", () => {
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["::ffff:0:7f00:1", "127.0.0.1"],
    ["::127.0.0.1", "127.0.0.1"],
    ["64:ff9b::7f00:1", "127.0.0.1"],
    ["64:ff9b::10.0.0.1", "10.0.0.1"],
    ["64:ff9b:1::c0a8:101", "192.168.1.1"],
    ["2002:a9fe:a9fe::1", "169.254.169.254"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1"],
  ])("%s carries %s and is refused", (address, inner) => {
    expect(embeddedIpv4(address)).toBe(inner);
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["64:ff9b::808:808", "::ffff:8.8.8.8", "2002:808:808::1", "2606:4700::1111", "8.8.8.8"])("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it("plain private IPv6 and non-addresses are refused", () => {
    for (const a of ["::1", "::", "fe80::1", "fd00::1", "not-an-ip"]) expect(isPrivateAddress(a), a).toBe(true);
  });
});
