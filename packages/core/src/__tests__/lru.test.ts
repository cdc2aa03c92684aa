import { describe, expect, it } from "vitest";
import { LruMap } from "../lru.js";

describe("the bounded map the read caches use", () => {
  it("never holds more than its capacity, forgetting the least recently used first", () => {
    const map = new LruMap<string, number>(3);
    for (const [i, key] of ["a", "b", "c"].entries()) map.set(key, i);
    expect(map.get("a")).toBe(0); // a is now the most recently used
    map.set("d", 3);
    expect(map.size).toBe(3);
    expect(map.get("b")).toBeUndefined();
    expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([0, 2, 3]);
    for (let i = 0; i < 10_000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
  });

  it("forgets the entries a predicate picks", () => {
    const map = new LruMap<string, { token: string }>(10);
    map.set("h1", { token: "tok_a" });
    map.set("h2", { token: "tok_b" });
    map.deleteWhere((v) => v.token === "tok_a");
    expect([map.get("h1"), map.get("h2")]).toEqual([undefined, { token: "tok_b" }]);
  });
});
