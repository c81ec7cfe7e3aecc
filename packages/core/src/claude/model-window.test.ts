import { describe, expect, it } from "vitest";
import { modelWindowTokens } from "./model-window.ts";

describe("modelWindowTokens", () => {
  it("is 1M for the models Claude Code 2.1.332 gives 1M, and for a [1m] suffix", () => {
    for (const model of [
      "claude-opus-5-5",
      "claude-opus-4-6",
      "claude-opus-4-7",
      "claude-sonnet-4-5[1m]",
      "CLAUDE-OPUS-5",
    ]) {
      expect(modelWindowTokens(model)).toBe(1_000_000);
    }
  });

  it("is 200K for other models and when unknown", () => {
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5", "", undefined]) {
      expect(modelWindowTokens(model)).toBe(200_000);
    }
  });
});
