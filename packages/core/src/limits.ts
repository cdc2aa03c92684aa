/** Documented length limits. Counted in UTF-16 code units after trimming. */
export const LIMITS = {
  title: 200,
  text: 4_000,
  details: 100_000,
  listItems: 50,
  url: 2_048,
  tags: 20,
  tag: 64,
  model: 200,
  artifactBody: 500_000,
  minChangedWords: 3,
  /** Largest request body a surface accepts, in bytes. */
  requestBytes: 2 * 1024 * 1024,
  pageDefault: 50,
  pageMax: 200,
} as const;

/** Title derived from `changed` when the caller gives none. */
export const DERIVED_TITLE_LENGTH = 120;
