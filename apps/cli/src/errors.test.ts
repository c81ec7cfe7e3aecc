import { CarryoverError } from "@carryover/core";
import { expect, it } from "vitest";
import { CliError, describeError, exitCodeOf, usageError } from "./errors.ts";

it("turns a permission error into one line with the path and what to do", () => {
  const error = Object.assign(new Error("EACCES: permission denied, open '/x/settings.json'"), { code: "EACCES", path: "/x/settings.json", syscall: "open" });
  expect(describeError(error)).toBe("cannot open /x/settings.json: permission denied; check its owner and mode, or choose another --scope");
  expect(exitCodeOf(error)).toBe(1);
});

it("passes typed errors through and keeps usage errors apart (exit 2)", () => {
  expect(describeError(new CarryoverError("BAD_INPUT", "f.json:1:2: invalid JSON: x"))).toBe("f.json:1:2: invalid JSON: x");
  expect(exitCodeOf(usageError("bad"))).toBe(2);
  expect(exitCodeOf(new CliError("broken"))).toBe(1);
});
