import { describe, expect, it } from "vitest";
import { renderState, stateTemplate } from "./state-file.ts";
import { isUnfilledState } from "./state-unfilled.ts";

describe("isUnfilledState", () => {
  it("is true for the template and for a state whose every section says none", () => {
    expect(isUnfilledState(stateTemplate("s-1", 0))).toBe(true);
    expect(isUnfilledState(renderState([], { "## Active Plan": "none" }))).toBe(true);
  });

  it("is false once any section holds something", () => {
    expect(isUnfilledState(renderState([], { "## Session Decisions": "Adopted B; rejected A (too slow)." }))).toBe(false);
  });
});
