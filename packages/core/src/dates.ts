/**
 * ISO 8601 dates that exist on the calendar. `Date.parse` is lenient (2026-02-30 becomes
 * 2 March, T24:00 the next day), so each part is checked against its own range instead.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2})))?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export interface CalendarOptions {
  /** Whether a bare date (2026-12-01) is enough; otherwise a time and zone are required. */
  dateOnly: boolean;
}

/** Whether `value` is an ISO 8601 date, or date-time with a zone, that names a real instant. */
export function isCalendarDateTime(value: string, options: CalendarOptions): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, zone, oh, om] = m;
  if (h === undefined && !options.dateOnly) return false;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (h === undefined) return true;
  if (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59)) return false;
  if (zone !== "Z" && (Number(oh) > 23 || Number(om) > 59)) return false;
  return true;
}

/** Both stores accept this range; year 0 and beyond 9999 would fail in the database instead of here. */
const EARLIEST = Date.parse("1970-01-01T00:00:00Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

export function isInStoredRange(value: string): boolean {
  return isStoredInstant(Date.parse(value));
}

/** The same range for an instant in milliseconds since the epoch (NaN is outside it). */
export const isStoredInstant = (ms: number): boolean => ms >= EARLIEST && ms <= LATEST;

const DAY_MS = 86_400_000;
/** The UTC day of the last instant formatted: its first millisecond and its "YYYY-MM-DDT". */
let lastDay = { start: Number.NaN, prefix: "" };
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()` for an instant in the stored range, to the character. The
 * spans of one export fall on one day, and Node 20's toISOString costs about 0.4 µs a call,
 * so the day's part is kept from the last call and only the time of day is written.
 */
export function isoOfStoredInstant(ms: number): string {
  const t = ms - lastDay.start;
  if (!(t >= 0 && t < DAY_MS) || !Number.isInteger(ms)) {
    const iso = new Date(ms).toISOString();
    lastDay = { start: ms - (ms % DAY_MS), prefix: iso.slice(0, 11) };
    return iso;
  }
  return `${lastDay.prefix}${two(Math.floor(t / 3_600_000))}:${two(Math.floor(t / 60_000) % 60)}:${two(Math.floor(t / 1_000) % 60)}.${three(t % 1_000)}Z`;
}

/**
 * Years 0001–9999, read in UTC: what PostgreSQL parses and what an ISO string shows with
 * four digits. A value inside them in its own zone can leave them once converted
 * (`0001-01-01T00:00:00+01:00` is in year 0, `9999-12-31T23:59:59-12:00` in 10000).
 */
const FIRST_INSTANT = Date.parse("0001-01-01T00:00:00Z");
/** The last instant of year 9999 (UTC), in milliseconds: nothing Cairn computes is stored later. */
export const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");

export const CALENDAR_YEARS_REASON = "must fall between 0001-01-01 and 9999-12-31 once converted to UTC";

/** Whether a parseable date or date-time falls in years 0001–9999 in UTC. */
export function isWithinCalendarYears(value: string): boolean {
  const t = Date.parse(value) + (roundsUpAMillisecond(value) ? 1 : 0);
  return t >= FIRST_INSTANT && t <= LAST_INSTANT;
}

/**
 * Whether the database, which keeps microseconds and rounds the rest, stores this value a
 * millisecond later than `Date.parse` (which truncates) reads it: `…59.9999995Z` is
 * stored as the next second, so at the end of 9999 it would be year 10000.
 */
function roundsUpAMillisecond(value: string): boolean {
  const fraction = /T[\d:]+\.(\d+)/.exec(value)?.[1] ?? "";
  return fraction.length > 6 && fraction.slice(3, 6) === "999" && Number(fraction[6]) >= 5;
}

/** A value written as a date (2026-02-30, or one starting a date-time) whose day does not exist: the words that say so. */
export function missingDayReason(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?=$|T)/.exec(value.trim());
  if (!m) return undefined;
  const [written, y, mo, d] = m as unknown as [string, string, string, string];
  const month = Number(mo);
  const day = Number(d);
  if (month >= 1 && month <= 12 && day >= 1 && day <= daysIn(Number(y), month)) return undefined;
  // Only digits and dashes are quoted back, so no submitted secret can be echoed.
  return `${written} is not a day in the calendar`;
}

/**
 * A zod `error` for a date check: says the day does not exist when that is what is wrong
 * (2026-02-30), and `otherwise` for any other shape.
 */
export const calendarError =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    missingDayReason(issue.input) ?? otherwise;

/** An instant as people read it on cards, pages and warnings: `2026-12-15 09:00 UTC`. */
export const readableInstant = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Dates people type into a filter (SPEC §34): `2d` and `36h` count back from now, `today`
 * and `yesterday` are the start of that UTC day. One parser for every filter schema and
 * every verb that resolves one; the words are lowercase after trimming, any case accepted.
 */
const RELATIVE = /^(\d{1,6})([dh])$/;
const DAY_WORDS = { today: 0, yesterday: 1 } as const;
const HOUR_MS = 3_600_000;

/** What a filter instant accepts, as its 422 says it. */
export const TYPED_INSTANT_REASON =
  "must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z), a time back from now in days or hours (2d, 36h), today or yesterday (UTC)";

/** The spelling a relative value is kept in (trimmed, lowercase), or null when it is not one. */
export function relativeInstant(value: string): string | null {
  const v = value.trim().toLowerCase();
  return Object.hasOwn(DAY_WORDS, v) || RELATIVE.test(v) ? v : null;
}

/**
 * The instant a filter value names at `now`: a relative value as above (never before
 * 1970-01-01, the earliest instant stored), a date alone as the start of that UTC day, a
 * date-time as written.
 */
export function resolveInstant(value: string, now: Date): Date {
  const relative = relativeInstant(value);
  if (relative === null) return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  const dayStart = now.getTime() - (((now.getTime() % DAY_MS) + DAY_MS) % DAY_MS);
  if (Object.hasOwn(DAY_WORDS, relative)) return new Date(dayStart - DAY_WORDS[relative as keyof typeof DAY_WORDS] * DAY_MS);
  const [, count, unit] = RELATIVE.exec(relative) as RegExpExecArray;
  return new Date(Math.max(EARLIEST, now.getTime() - Number(count) * (unit === "d" ? DAY_MS : HOUR_MS)));
}
