import { describe, expect, it } from "vitest";
import { assertSafeSessionId, isSafeSessionId } from "./session-id.ts";

describe("session ids", () => {
  it("accepts Claude Code's UUIDs and plain tokens", () => {
    for (const id of ["292a2a51-de5b-4500-91e5-548294a01232", "abc_DEF-1", "x", "a".repeat(128)]) {
      expect(isSafeSessionId(id)).toBe(true);
      expect(assertSafeSessionId(id)).toBe(id);
    }
  });

  it("refuses anything that could leave its directory or is not a plain token", () => {
    for (const id of [
      "../x",
      "/abs",
      "a/b",
      "a\\b",
      ".",
      "..",
      "-leading",
      "_leading",
      "",
      "x\0y",
      "a b",
      "é",
      "a".repeat(129),
      "x".repeat(10_240),
    ]) {
      expect(isSafeSessionId(id)).toBe(false);
      expect(() => assertSafeSessionId(id)).toThrow(expect.objectContaining({ code: "BAD_SESSION_ID" }));
    }
    expect(isSafeSessionId(42)).toBe(false);
    expect(isSafeSessionId(undefined)).toBe(false);
  });

  it("says so in one short line, quoting at most 40 characters", () => {
    expect(() => assertSafeSessionId(`../${"x".repeat(10_240)}`)).toThrow(
      `session id ${JSON.stringify(`../${"x".repeat(37)}`)} ` +
        "is not a safe token (letters, digits, - and _, at most 128)",
    );
    expect(() => assertSafeSessionId("a\nb")).toThrow(/^session id "a\\nb" is not a safe token/);
    expect(() => assertSafeSessionId(null)).toThrow("session id object is not a safe token");
  });
});
