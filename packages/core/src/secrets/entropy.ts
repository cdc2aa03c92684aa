/**
 * The opt-in entropy detector (policy `entropy_detection`). secretlint knows token
 * formats; this catches the generic random strings it cannot name. It is tuned to leave
 * the things receipts are full of alone: commit and content hashes (pure hex), dates,
 * words, CamelCase identifiers and URLs without credentials.
 */
export const ENTROPY_RULE = "entropy";

const CANDIDATE = /[A-Za-z0-9+/=_-]{20,}/g;
const PURE_HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;
const MIN_BITS_PER_CHAR = 3.5;
/** Random strings switch between lower, upper and digit most of the time; words and identifiers rarely do. */
const MIN_CLASS_SWITCH_RATIO = 0.3;
/** CamelCase identifiers are mostly runs of 4+ lowercase letters; random text almost never is (0.42^4 ≈ 3%). */
const MAX_WORDY_FRACTION = 0.4;

function wordyFraction(s: string): number {
  let wordy = 0;
  for (const run of s.matchAll(/[a-z]{4,}/g)) wordy += run[0].length;
  return wordy / s.length;
}

function shannonBits(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const classOf = (c: string) => (c >= "a" && c <= "z" ? 1 : c >= "A" && c <= "Z" ? 2 : c >= "0" && c <= "9" ? 3 : 0);

function classSwitchRatio(s: string): { ratio: number; classes: number } {
  const seen = new Set<number>();
  let switches = 0;
  let prev = -1;
  for (const c of s) {
    const k = classOf(c);
    if (k === 0) continue;
    seen.add(k);
    if (prev !== -1 && k !== prev) switches++;
    prev = k;
  }
  return { ratio: switches / Math.max(1, s.length - 1), classes: seen.size };
}

export function looksRandom(token: string): boolean {
  const core = token.replace(/=+$/, "");
  if (core.length < 20 || PURE_HEX.test(core)) return false;
  const { ratio, classes } = classSwitchRatio(core);
  return classes >= 2 && ratio >= MIN_CLASS_SWITCH_RATIO && wordyFraction(core) < MAX_WORDY_FRACTION && shannonBits(core) >= MIN_BITS_PER_CHAR;
}

/** The high-entropy tokens in a text, each once. */
export function findHighEntropyTokens(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(CANDIDATE)) {
    if (looksRandom(match[0])) found.add(match[0]);
  }
  return [...found];
}
