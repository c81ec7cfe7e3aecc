import { describe, expect, it } from "vitest";
import { capText } from "./cap.ts";

describe("capText", () => {
  it("leaves short text alone", () => {
    expect(capText("short", 10)).toBe("short");
    expect(capText("x".repeat(10), 10)).toBe("x".repeat(10));
  });

  it("cuts long text to the limit, visibly", () => {
    const cut = capText("y".repeat(20_000), 10_000);
    expect(cut).toHaveLength(10_000);
    expect(cut).toMatch(/^y+\n\[… cut by carryover to stay within the hook output limit\]$/);
  });
});
