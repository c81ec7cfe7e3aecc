import { describe, expect, it } from "vitest";
import { CarryoverError, errorMessage } from "./errors.ts";

describe("errors", () => {
  it("CarryoverError carries a code callers can branch on", () => {
    const error = new CarryoverError("UNSAFE_PATH", "refusing /x: it is a symlink");
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "CarryoverError", code: "UNSAFE_PATH", message: "refusing /x: it is a symlink" });
  });

  it("errorMessage reads anything thrown", () => {
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage("plain")).toBe("plain");
    expect(errorMessage(42)).toBe("42");
  });
});
