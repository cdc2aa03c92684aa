import type { CairnErrorCode } from "@cairn/core";

/**
 * Exit codes are part of the CLI's contract with scripts: documented in `cairn --help`
 * and the README, and never renumbered. New failure kinds get new numbers.
 */
export const EXIT = {
  ok: 0,
  /** The input was refused: it failed validation (locally or on the server), does not parse, or the current state refuses it (409 conflict; the message says what changed or until when). */
  rejected: 1,
  /** The command line was wrong: unknown command or option, missing argument, unreadable file. */
  usage: 2,
  /** The server could not be reached, or answered that it is unavailable (502/503/504: e.g. its database is down): try again. */
  unreachable: 3,
  /** No token, an unknown token (401), or not allowed (403). */
  auth: 4,
  /** Nothing with that id is visible to you (404), or it has expired (410). */
  notFound: 5,
  /** An identical receipt from the same owner was stored in the last 24 hours (409); the existing one stands. */
  duplicate: 6,
  /** The server failed (500) or answered with something that is not Cairn's. */
  server: 7,
  /** `cairn verify`: a receipt or an exported line failed a check (the check is named). */
  unverified: 8,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Exhaustive: a new core error code does not compile until the CLI gives it an exit code. */
export function exitCodeOf(code: CairnErrorCode): ExitCode {
  switch (code) {
    case "validation_failed":
    case "unknown_schema":
    case "idempotency_mismatch":
    case "payload_too_large":
    case "unsupported_media_type":
    case "conflict":
    case "rate_limited":
    case "already_decided":
    case "expired":
      return EXIT.rejected;
    case "unavailable":
      return EXIT.unreachable;
    case "unauthenticated":
    case "forbidden":
      return EXIT.auth;
    case "not_found":
    case "gone":
      return EXIT.notFound;
    case "duplicate":
      return EXIT.duplicate;
    case "internal":
      return EXIT.server;
  }
}

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  rejected input: the file or arguments failed validation, or the file does not parse; or the current state refuses it (409)
  2  usage: unknown command or option, missing argument, unreadable file
  3  server unreachable or unavailable, e.g. its database is down (check CAIRN_URL, or start \`cairn serve\`)
  4  authentication: no token, an unknown token (401) or not allowed (403)
  5  not found (404) or expired (410)
  6  duplicate: an identical receipt was stored in the last 24 hours (the existing id is printed)
  7  server error, or an answer that is not from a Cairn server
  8  verify: a receipt or exported line failed a check (payload, key, signature or checksum)`;
