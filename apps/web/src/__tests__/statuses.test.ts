import { ERROR_CODES, HTTP_STATUS } from "@cairn/core";
import { describe, expect, it } from "vitest";
import { failureOf } from "../adapter.js";

describe("the web answers each error code with core's one status (REST's too)", () => {
  it.each([...ERROR_CODES])("%s", (code) => {
    expect(failureOf(code).status).toBe(HTTP_STATUS[code]);
  });

  it("the table says what SPEC §13 pins", () => {
    expect([HTTP_STATUS.validation_failed, HTTP_STATUS.duplicate, HTTP_STATUS.not_found, HTTP_STATUS.gone, HTTP_STATUS.unavailable]).toEqual([
      422, 409, 404, 410, 503,
    ]);
  });
});
