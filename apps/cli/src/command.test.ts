import { expect, it } from "vitest";
import { COMMANDS } from "./cli.ts";
import { usageSpec } from "./command.ts";

it("each command accepts the flags and as many arguments as its usage line shows", () => {
  const specs = Object.fromEntries(COMMANDS.map((command) => [command.name, usageSpec(command.usage)]));
  const flags = (booleans: string[], valued: string[]) =>
    Object.fromEntries([
      ["help", "boolean"],
      ...booleans.map((name) => [name, "boolean"]),
      ...valued.map((name) => [name, "string"]),
    ]);
  expect(specs).toEqual({
    list: { flags: flags(["json"], ["from", "project"]), maxPositionals: 0 },
    install: {
      flags: flags(["all", "recommended", "force", "dry-run"], ["scope", "project", "statusline", "from"]),
      maxPositionals: Number.POSITIVE_INFINITY,
    },
    uninstall: {
      flags: flags(["all", "purge", "dry-run"], ["scope", "project", "from"]),
      maxPositionals: Number.POSITIVE_INFINITY,
    },
    config: { flags: flags(["unset", "json"], ["scope", "project"]), maxPositionals: 3 },
    doctor: { flags: flags(["json"], ["project", "from"]), maxPositionals: 0 },
    status: { flags: flags(["json"], ["session", "project"]), maxPositionals: 1 },
    context: { flags: flags(["json"], ["html"]), maxPositionals: 1 },
    marketplace: { flags: flags([], ["name", "from"]), maxPositionals: 1 },
  });
});

it("reads a required argument, alternatives and a repeated one", () => {
  expect(usageSpec("carryover x DIR [--to | --from DIR]")).toEqual({
    flags: { help: "boolean", to: "boolean", from: "string" },
    maxPositionals: 1,
  });
  expect(usageSpec("carryover x [a] [b | --b] [c…]").maxPositionals).toBe(Number.POSITIVE_INFINITY);
  expect(usageSpec("carryover x [a] [b | --b]").maxPositionals).toBe(2);
  expect(usageSpec("carryover x").maxPositionals).toBe(0);
});
