import { expect, it } from "vitest";
import { listHandlers, ownedExecutable, removeHandlers, syncRegistrations } from "./hook-entries.ts";

const BIN = "/h/.claude/carryover/bin";
const OURS = `${BIN}/carryover-recovery`;

it("knows carryover's executables by their dir and prefix only", () => {
  expect(ownedExecutable(OURS, BIN)).toBe("carryover-recovery");
  expect(ownedExecutable("/usr/bin/carryover-recovery", BIN)).toBeNull();
  expect(ownedExecutable(`${BIN}/other`, BIN)).toBeNull();
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
  syncRegistrations(settings, OURS, [{ event: "UserPromptSubmit", timeout: 30 }, { event: "SessionStart", matcher: "compact", timeout: 30 }], "s.json");
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
