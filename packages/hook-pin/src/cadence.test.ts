import { expect, it } from "vitest";
import { digestOf } from "./cadence.ts";

it("digestOf is stable, 16 hex digits, and tells apart texts one character apart", () => {
  const text = "Never touch the migrations folder.";
  expect(digestOf(text)).toMatch(/^[0-9a-f]{16}$/);
  expect(digestOf(text)).toBe(digestOf(`${text}`));
  const variants = [text.replace("Never", "never"), `${text} `, text.slice(1), "", "é".repeat(3), "e".repeat(3)];
  expect(new Set([text, ...variants].map(digestOf)).size).toBe(variants.length + 1);
});
