import { describe, expect, it } from "vitest";
import { DatabaseUrlError, needsHostSelection, parseDatabaseUrl } from "../store/database-url.js";
import { fits, hostNoLongerFits } from "../store/host-pool.js";

const hosts = (url: string) => parseDatabaseUrl(url).hosts.map((h) => `${h.host}:${h.port}`);

// The examples of libpq's "Connection URIs" and "Specifying Multiple Hosts" (PostgreSQL 15 docs, §34.1.1).
describe("a DATABASE_URL is read as libpq reads a connection URI", () => {
  it.each([
    ["postgresql://", ["localhost:5432"]],
    ["postgresql://localhost", ["localhost:5432"]],
    ["postgresql://localhost:5433", ["localhost:5433"]],
    ["postgresql://localhost/mydb", ["localhost:5432"]],
    ["postgresql://user@localhost", ["localhost:5432"]],
    ["postgresql://user:secret@localhost", ["localhost:5432"]],
    ["postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp", ["localhost:5432"]],
    ["postgresql://host1:123,host2:456/somedb?target_session_attrs=any&application_name=myapp", ["host1:123", "host2:456"]],
    ["postgresql://[2001:db8::1234]/database", ["2001:db8::1234:5432"]],
    ["postgresql:///dbname?host=/var/lib/postgresql", ["/var/lib/postgresql:5432"]],
    ["postgresql://%2Fvar%2Flib%2Fpostgresql/dbname", ["/var/lib/postgresql:5432"]],
    ["postgres://h1:5432,h2:5433/db?target_session_attrs=read-write", ["h1:5432", "h2:5433"]],
    ["postgres://h1,h2:5433,h3/db", ["h1:5432", "h2:5433", "h3:5432"]],
    ["postgres:///db?host=h1,h2&port=6000", ["h1:6000", "h2:6000"]],
    ["postgres:///db?host=h1,h2&port=6000,6001", ["h1:6000", "h2:6001"]],
  ])("%s → %j", (url, expected) => {
    expect(hosts(url)).toEqual(expected);
  });

  it.each(["any", "read-write", "read-only", "primary", "standby", "prefer-standby"])(
    "target_session_attrs=%s is read and taken out of the URL node-postgres gets",
    (attrs) => {
      const target = parseDatabaseUrl(`postgres://u:p@h1:1,h2:2/cairn?sslmode=disable&target_session_attrs=${attrs}`);
      expect(target.targetSessionAttrs).toBe(attrs);
      expect(target.hosts.map((h) => target.urlFor(h))).toEqual(["postgres://u:p@h1:1/cairn?sslmode=disable", "postgres://u:p@h2:2/cairn?sslmode=disable"]);
    },
  );

  it("each host's URL keeps everything else, an IPv6 host in brackets and a socket directory as node-postgres's host parameter", () => {
    const target = parseDatabaseUrl("postgresql://u@[::1]:7,%2Ftmp%2Fpg:8/db?application_name=x");
    expect(target.hosts.map((h) => target.urlFor(h))).toEqual([
      "postgresql://u@[::1]:7/db?application_name=x",
      "postgresql://u@/db?application_name=x&host=%2Ftmp%2Fpg&port=8",
    ]);
    expect(target.targetSessionAttrs).toBe("any");
  });

  it("a plain single-host URL needs no host selection; several hosts or a role to check do", () => {
    expect(needsHostSelection(parseDatabaseUrl("postgres://localhost:5432/db"))).toBe(false);
    expect(needsHostSelection(parseDatabaseUrl("postgres://a,b/db"))).toBe(true);
    expect(needsHostSelection(parseDatabaseUrl("postgres://a/db?target_session_attrs=read-write"))).toBe(true);
  });

  it.each([
    [
      "postgres://h/db?target_session_attrs=master",
      /target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby; got "master"/,
    ],
    ["postgres://h:99999/db", /port must be a number from 1 to 65535; got "99999"/],
    ["postgres:///db?host=a,b,c&port=1,2", /port lists 2 ports for 3 hosts/],
    ["mysql://h/db", /must start with postgres:\/\/ or postgresql:\/\//],
  ])("%s is refused with the part and the rule", (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl(url)).toThrow(message);
  });

  it("a refusal never quotes the password", () => {
    expect(() => parseDatabaseUrl("postgres://u:hunter2@h:0/db")).toThrow(/^(?!.*hunter2)/);
  });
});

describe("libpq's target_session_attrs, host by host", () => {
  const primary = { inRecovery: false, readOnly: false };
  const standby = { inRecovery: true, readOnly: true };
  const readOnlyPrimary = { inRecovery: false, readOnly: true };
  it.each([
    ["any", [true, true, true]],
    ["read-write", [true, false, false]],
    ["read-only", [false, true, true]],
    ["primary", [true, false, true]],
    ["standby", [false, true, false]],
    ["prefer-standby", [false, true, false]],
  ] as const)("%s accepts [primary, standby, read-only primary] = %j", (attrs, expected) => {
    expect([primary, standby, readOnlyPrimary].map((role) => fits(attrs, role))).toEqual(expected);
  });

  it.each([
    { code: "25006" },
    { code: "57P01" },
    { code: "08006" },
    { code: "ECONNREFUSED" },
    new Error("Connection terminated unexpectedly"),
    { code: "unavailable", cause: { code: "57P01" } },
  ])("%j means the chosen host no longer serves", (err) => expect(hostNoLongerFits(err)).toBe(true));

  it.each([{ code: "57014" }, { code: "23505" }, new Error("timeout exceeded when trying to connect")])("%j says nothing about the host", (err) =>
    expect(hostNoLongerFits(err)).toBe(false),
  );
});
