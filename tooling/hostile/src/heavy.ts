import { LIMITS } from "@cairn/core";
import { fullReceipt } from "@cairn/core/testing";
import { tokenLike } from "./strings.js";

/** The worst bodies within the request limit, each a class from the issue. */
export const HEAVY = {
  "15k token-like strings in one receipt": () =>
    fullReceipt({
      evidence: Array.from({ length: 50 }, (_, e) => ({
        label: Array.from({ length: 100 }, (_, i) => tokenLike(e * 300 + i)).join(" "),
        url: "https://ci.example.com/1",
      })),
      remaining: Array.from({ length: 50 }, (_, r) => ({
        item: Array.from({ length: 100 }, (_, i) => tokenLike(r * 300 + 100 + i)).join(" "),
        owner: Array.from({ length: 100 }, (_, i) => tokenLike(r * 300 + 200 + i)).join(" "),
      })),
    }),
  "20k token-named unknown keys": () => ({
    ...fullReceipt(),
    ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [tokenLike(i), i])),
  }),
  "an artifact body of token-like strings": () => ({
    title: "t",
    body: Array.from({ length: 12_000 }, (_, i) => tokenLike(i))
      .join(" ")
      .slice(0, LIMITS.artifactBody),
  }),
  "a body just under 2 MiB of unknown keys": () => justUnder2MiB(),
} as const;

/** A receipt padded with 1 KB unknown keys to just under the request limit (ASCII: characters are bytes). */
export function justUnder2MiB(): Record<string, unknown> {
  const body: Record<string, unknown> = fullReceipt();
  const key = "k".repeat(1_000);
  let size = JSON.stringify(body).length;
  for (let i = 0; size < LIMITS.requestBytes - 2_100; i++) {
    body[`${key}${i}`] = i;
    size += key.length + String(i).length * 2 + 4;
  }
  return body;
}
