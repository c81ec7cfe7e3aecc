import { expect, it } from "vitest";
import { formatTokens } from "./tokens.ts";

it("writes token counts the way people read them", () => {
  expect(
    [0, 950, 1_000, 9_450, 9_960, 33_500, 118_456, 967_000, 999_600, 1_000_000, 1_250_000].map(formatTokens),
  ).toEqual(["0", "950", "1k", "9.5k", "10k", "34k", "118k", "967k", "1M", "1M", "1.3M"]);
});

it("never shows a negative count", () => {
  expect(formatTokens(-5)).toBe("0");
});
