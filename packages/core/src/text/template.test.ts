import { expect, it } from "vitest";
import { fillTemplate } from "./template.ts";

it("fills known placeholders, every occurrence", () => {
  expect(fillTemplate("{a} and {b}, {a} again", { a: "1", b: "2" })).toBe("1 and 2, 1 again");
});

it("leaves an unknown placeholder as written, so a typo shows", () => {
  expect(fillTemplate("at {percnt}%", { percent: "62" })).toBe("at {percnt}%");
});

it("does not treat inherited object keys as placeholders", () => {
  expect(fillTemplate("{constructor} {toString}", {})).toBe("{constructor} {toString}");
});

it("inserts values literally, even with $ patterns", () => {
  expect(fillTemplate("{x}", { x: "$& $1 $$" })).toBe("$& $1 $$");
});
