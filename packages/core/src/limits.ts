/**
 * Documented limits. Text lengths are counted in UTF-16 code units after trimming. Every
 * request's CPU and memory are bounded by these (SPEC §14); each has a test.
 */
export const LIMITS = {
  title: 200,
  text: 4_000,
  details: 100_000,
  listItems: 50,
  url: 2_048,
  /** Webhook subscriptions of one owner (SPEC §19). */
  subscriptionsPerOwner: 25,
  tags: 20,
  tag: 64,
  model: 200,
  artifactBody: 500_000,
  minChangedWords: 3,
  /** Largest request body a surface accepts, in bytes. */
  requestBytes: 2 * 1024 * 1024,
  pageDefault: 50,
  pageMax: 200,
  /** A full-text search query (`q`). */
  query: 500,
  /** A paging cursor. */
  cursor: 200,
  /**
   * Field paths named in one error or one drop receipt; past it one more entry says
   * `…and N more`. Keeps a body of 20k unknown keys from becoming a 20k-issue answer.
   */
  issuesReported: 20,
  /** Characters of one path segment (an unknown key's name) kept in an issue; longer ones are cut. */
  fieldPathSegment: 128,
  /**
   * Characters of text the secret scanner reads per request (every persisted string
   * together). Beyond it the request is refused (422), never scanned in part.
   */
  scanChars: 1_048_576,
  /**
   * Secret occurrences the scanner reports per request. Scanning stops past it and the
   * request is refused: with that many, it is not a receipt, and redacting would cost
   * work proportional to occurrences times text.
   */
  secretHits: 100,
  /**
   * Levels of arrays and objects inside each other in any JSON input (the input itself is
   * level 1). Checked before anything walks the input: past it the request is refused
   * (422, a receipt leaves its drop), never left to overflow a recursive walk.
   */
  depth: 64,
} as const;

/** Title derived from `changed` when the caller gives none. */
export const DERIVED_TITLE_LENGTH = 120;
