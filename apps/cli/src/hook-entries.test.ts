import { expect, it } from "vitest";
import { listHandlers, ownedExecutable, removeHandlers, syncRegistrations } from "./hook-entries.ts";

const OWNER = { binDir: "/h/.claude/carryover/bin", home: "/h" };
const OURS = `${OWNER.binDir}/carryover-recovery`;

it("knows carryover's executables by their dir and prefix, in exec form or written by hand in shell form", () => {
  expect(ownedExecutable(OURS, OWNER)).toBe("carryover-recovery");
  expect(ownedExecutable("~/.claude/carryover/bin/carryover-pin --verbose", OWNER)).toBe("carryover-pin");
  expect(ownedExecutable("'$HOME/.claude/carryover/bin/carryover-pin'", OWNER)).toBe("carryover-pin");
  expect(ownedExecutable("/home/J Doe/.claude/carryover/bin/carryover-pin", { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" })).toBe("carryover-pin");
  expect(ownedExecutable("/usr/bin/carryover-recovery", OWNER)).toBeNull();
  expect(ownedExecutable(`${OWNER.binDir}/other`, OWNER)).toBeNull();
});

it("takes over a hand-written shell-form entry of the same executable instead of adding a second one", () => {
  const settings: Record<string, any> = { hooks: { PostCompact: [{ hooks: [{ type: "command", command: "~/.claude/carryover/bin/carryover-recovery" }] }] } };
  syncRegistrations(settings, OURS, [{ event: "PostCompact", timeout: 10 }], "s.json", OWNER);
  expect(settings.hooks.PostCompact).toEqual([{ hooks: [{ type: "command", command: OURS, args: [], timeout: 10 }] }]);
});

it("updates a handler in place (position, the user's extra keys kept) and drops registrations no longer wanted", () => {
  const settings: Record<string, any> = {
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: OURS, args: [], timeout: 5, statusMessage: "recovering" }] },
        { hooks: [{ type: "command", command: "mine" }] },
      ],
      Stop: [{ hooks: [{ type: "command", command: OURS, args: [], timeout: 5 }] }],
    },
  };
  syncRegistrations(settings, OURS, [{ event: "UserPromptSubmit", timeout: 30 }, { event: "SessionStart", matcher: "compact", timeout: 30 }], "s.json", OWNER);
  expect(settings.hooks.UserPromptSubmit).toEqual([
    { hooks: [{ type: "command", command: OURS, args: [], timeout: 30, statusMessage: "recovering" }] },
    { hooks: [{ type: "command", command: "mine" }] },
  ]);
  expect(settings.hooks.Stop).toBeUndefined();
  expect(settings.hooks.SessionStart).toEqual([{ matcher: "compact", hooks: [{ type: "command", command: OURS, args: [], timeout: 30 }] }]);
});

it("removal drops only the groups and lists it emptied; a handler shared with the user's stays theirs", () => {
  const settings: Record<string, any> = {
    hooks: {
      PreCompact: [],
      PostCompact: [{ hooks: [{ type: "command", command: "mine" }, { type: "command", command: OURS }] }, { hooks: [{ type: "command", command: OURS }] }],
    },
  };
  expect(removeHandlers(settings, (site) => site.command === OURS, "s.json")).toBe(2);
  expect(settings).toEqual({ hooks: { PreCompact: [], PostCompact: [{ hooks: [{ type: "command", command: "mine" }] }] } });
  expect(listHandlers(settings).map((site) => site.command)).toEqual(["mine"]);
});
