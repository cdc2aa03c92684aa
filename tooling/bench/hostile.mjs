// The worst bodies within the request limit (the classes of the hostile-input suite), for the bench.
import { LIMITS } from "@cairn/core";
import { fullReceipt } from "@cairn/core/testing";

const token = (i) => `ghp_${String(i).padStart(8, "0")}A1b2C3d4E5f6G7h8I9j0K1l2M3n4`;
const tokens = (from, n) => Array.from({ length: n }, (_, i) => token(from + i)).join(" ");

export const WORST_BODIES = {
  "15k token-like strings": () =>
    fullReceipt({
      evidence: Array.from({ length: 50 }, (_, e) => ({ label: tokens(e * 300, 95), url: "https://ci.example.com/1" })),
      remaining: Array.from({ length: 50 }, (_, r) => ({ item: tokens(r * 300 + 100, 95), owner: tokens(r * 300 + 200, 95) })),
    }),
  "20k token-named unknown keys": () => ({ ...fullReceipt(), ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [token(i), i])) }),
  "2 MiB of 1 KB unknown keys": () => {
    const body = fullReceipt();
    const key = "k".repeat(1_000);
    let size = JSON.stringify(body).length;
    for (let i = 0; size < LIMITS.requestBytes - 2_100; i++) {
      body[`${key}${i}`] = i;
      size += key.length + String(i).length * 2 + 4;
    }
    return body;
  },
  "1 MiB of prose to scan": () =>
    fullReceipt({
      details: "The export retries failed uploads; see run 4812. ".repeat(2_000).slice(0, LIMITS.details),
      remaining: Array.from({ length: 50 }, () => ({ item: "word ".repeat(790), owner: "team ".repeat(790) })),
      evidence: Array.from({ length: 50 }, () => ({ label: "label ".repeat(660), url: "https://ci.example.com/1" })),
    }),
};
