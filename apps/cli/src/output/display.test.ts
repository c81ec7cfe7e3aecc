import { describe, expect, it } from "vitest";
import { tildifyPaths } from "./display.ts";

describe("tildifyPaths", () => {
  const env = { HOME: "/home/me" };

  it("shows each path under HOME with ~, and no other path", () => {
    expect(
      tildifyPaths(
        "refusing /home/me/.claude/carryover: a symlink to /home/me/dots (mode 777); not /mnt/home/me/x",
        env,
      ),
    ).toBe("refusing ~/.claude/carryover: a symlink to ~/dots (mode 777); not /mnt/home/me/x");
  });

  it("leaves a path that only starts with HOME's name, and HOME itself stands as ~", () => {
    expect(tildifyPaths("/home/meadow/x and /home/me", env)).toBe("/home/meadow/x and ~");
  });
});
