import { describe, expect, it } from "vitest";
import { splitStatements } from "../store/migrate.js";

describe("splitting a migration into statements", () => {
  it("splits on semicolons, but not inside a $$-quoted function body", () => {
    const sql = `
      create table a (id int);
      create function f() returns int language plpgsql as $$ begin perform 1; return 2; end $$;
      alter table a add column b int;`;
    expect(splitStatements(sql)).toEqual([
      "create table a (id int)",
      "create function f() returns int language plpgsql as $$ begin perform 1; return 2; end $$",
      "alter table a add column b int",
    ]);
  });
});
