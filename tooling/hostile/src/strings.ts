import fc from "fast-check";

/** Token-like strings of the shapes the secret scanner knows, each distinct (so nothing is de-duplicated away). */
export const tokenLike = (i: number): string => {
  const n = String(i).padStart(8, "0");
  switch (i % 4) {
    case 0:
      return `ghp_${n}A1b2C3d4E5f6G7h8I9j0K1l2M3n4`;
    case 1:
      return `AKIA${n.slice(0, 4)}ZQWERTYUIOPA`;
    case 2:
      return `npm_${n}abcdefghijklmnopqrstuvwxyz0123`;
    default:
      return `xoxb-123456789012-${n}12345-AbCdEfGhIjKlMnOpQrStUvWx`;
  }
};

/** Text the database cannot store, or that a reader cannot see, or that is built to cost work. */
const HOSTILE_STRINGS: readonly string[] = [
  "\u0000",
  "before\u0000after",
  "\uD800",
  "tail\uDBFF",
  "\uDC00head",
  "\u200b",
  "\u200b\u200c\u200d\u2060\ufeff",
  "\u0301\u0308\u0327",
  "\u3164\u115f\u1160\uffa0",
  " \u2800 \t\n",
  "\u202e\u2066\u2069",
  "\u001b]52;c;aGVsbG8=\u0007",
  "\u001b[2J\u001b[H Receipt verified",
  "\r\n\r\n",
  "\u0001\u0008\u000b\u000c\u001f in XML",
  "\ufffe\uffff",
  "2026-02-30",
  "2026-12-01T24:00:00Z",
  "2026-13-01T00:00:00Z",
  "../../etc/passwd",
  "%00",
  "'; drop table artifacts; --",
  "😀\u0000😀",
];

/** One hostile string: a fixed nasty one, a random mix of nasty code units, or a long repeat. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom("a", " ", "\u0000", "\uD800", "\uDFFF", "\u200b", "\u0301", "é", "\n", "\u001b", "😀", "\u3164"), {
        minLength: 1,
        maxLength: 24,
      })
      .map((parts) => parts.join("")),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => tokenLike(n).repeat(1 + (n % 20))) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(5_000), "\u200b".repeat(3_000), "é".repeat(250)) },
);

/** A value of the wrong type for a string field. */
export const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(null, 0, -1, 1e308, true, [], {}, ["\u0000"], { "\u0000": 1 });
