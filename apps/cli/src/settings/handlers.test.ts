import { expect, it } from "vitest";
import { listHandlers, ownedExecutable, ownedRun, removeHandlers, syncRegistrations } from "./handlers.ts";

const OWNER = { binDir: "/h/.claude/carryover/bin", home: "/h" };
const OURS = `${OWNER.binDir}/carryover-recovery`;
const owned = (command: string, args?: unknown[]) =>
  ownedExecutable(args === undefined ? { command } : { command, args }, OWNER);

it("knows carryover's executables by their dir and prefix, in exec form or written by hand in shell form", () => {
  expect(owned(OURS)).toBe("carryover-recovery");
  expect(owned(OURS, [])).toBe("carryover-recovery");
  expect(owned("~/.claude/carryover/bin/carryover-pin --verbose")).toBe("carryover-pin");
  expect(owned("'$HOME/.claude/carryover/bin/carryover-pin'")).toBe("carryover-pin");
  expect(
    ownedExecutable(
      { command: "/home/J Doe/.claude/carryover/bin/carryover-pin" },
      { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" },
    ),
  ).toBe("carryover-pin");
  expect(owned("/usr/bin/carryover-recovery")).toBeNull();
  expect(owned(`${OWNER.binDir}/other`)).toBeNull();
});

it("knows them run by sh or node: exec form with the path as args[0], shell form with it as the second word", () => {
  expect(owned("node", [OURS])).toBe("carryover-recovery");
  expect(ownedRun({ command: "/bin/sh", args: [OURS, "UserPromptSubmit"] }, OWNER)).toEqual({
    executable: "carryover-recovery",
    launcher: "/bin/sh",
  });
  expect(owned(`sh ${OURS} UserPromptSubmit`)).toBe("carryover-recovery");
  expect(ownedRun({ command: "/opt/homebrew/bin/node", args: [OURS] }, OWNER)).toEqual({
    executable: "carryover-recovery",
    launcher: "/opt/homebrew/bin/node",
  });
  expect(ownedRun({ command: "node", args: [OURS] }, OWNER)).toEqual({
    executable: "carryover-recovery",
    launcher: "node",
  });
  expect(
    ownedExecutable(
      { command: "node", args: ["/home/J Doe/.claude/carryover/bin/carryover-pin"] },
      { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" },
    ),
  ).toBe("carryover-pin");
  expect(owned(`node ${OURS}`)).toBe("carryover-recovery");
  expect(owned("node ~/.claude/carryover/bin/carryover-pin --verbose")).toBe("carryover-pin");
  expect(owned(`"node" "\${HOME}/.claude/carryover/bin/carryover-pin"`)).toBe("carryover-pin");
  expect(
    ownedExecutable(
      { command: "node '/home/J Doe/.claude/carryover/bin/carryover-statusline'" },
      { binDir: "/home/J Doe/.claude/carryover/bin", home: "/home/J Doe" },
    ),
  ).toBe("carryover-statusline");
  expect(
    ownedRun({ command: "~/.nvm/versions/node/v22.1.0/bin/node $HOME/.claude/carryover/bin/carryover-pin" }, OWNER),
  ).toEqual({
    executable: "carryover-pin",
    launcher: "/h/.nvm/versions/node/v22.1.0/bin/node",
  });
});

it("a node handler running anything else is not carryover's", () => {
  expect(owned("node", ["/opt/guard.js"])).toBeNull();
  expect(owned("node", ["--no-warnings", OURS])).toBeNull();
  expect(owned("node", [])).toBeNull();
  expect(owned("node /opt/guard.js")).toBeNull();
  expect(owned(`node --no-warnings ${OURS}`)).toBeNull();
  expect(owned("nodejs", [OURS])).toBeNull();
  expect(owned("bin/node", [OURS])).toBeNull();
  expect(owned(`python3 ${OURS}`)).toBeNull();
});

it("takes over a hand-written shell-form entry of the same executable instead of adding a second one", () => {
  const settings: Record<string, any> = {
    hooks: { PostCompact: [{ hooks: [{ type: "command", command: "~/.claude/carryover/bin/carryover-recovery" }] }] },
  };
  syncRegistrations(settings, OURS, [{ event: "PostCompact", timeout: 10 }], "s.json", OWNER);
  expect(settings.hooks.PostCompact).toEqual([
    { hooks: [{ type: "command", command: "/bin/sh", args: [OURS, "PostCompact"], timeout: 10 }] },
  ]);
});

it("migrates an earlier version's exec-form handler to sh in place: group, position, matcher, other keys kept", () => {
  const settings: Record<string, any> = {
    hooks: {
      SessionStart: [
        { matcher: "startup", hooks: [{ type: "command", command: "mine" }] },
        {
          matcher: "compact",
          hooks: [
            { type: "command", command: "mine too" },
            { type: "command", command: OURS, args: [], timeout: 30, statusMessage: "recovering" },
          ],
        },
      ],
    },
  };
  syncRegistrations(settings, OURS, [{ event: "SessionStart", matcher: "compact", timeout: 30 }], "s.json", OWNER);
  expect(settings.hooks.SessionStart).toEqual([
    { matcher: "startup", hooks: [{ type: "command", command: "mine" }] },
    {
      matcher: "compact",
      hooks: [
        { type: "command", command: "mine too" },
        { type: "command", command: "/bin/sh", args: [OURS, "SessionStart"], timeout: 30, statusMessage: "recovering" },
      ],
    },
  ]);
});

it("moves a node named by its absolute path to sh (its prelude finds Node); a foreign `node` handler stays", () => {
  const foreign = { type: "command", command: "node", args: ["/opt/guard.js"], timeout: 5 };
  const settings: Record<string, any> = {
    hooks: {
      UserPromptSubmit: [
        { hooks: [foreign, { type: "command", command: "/opt/node22/bin/node", args: [OURS], timeout: 5 }] },
      ],
      Stop: [{ hooks: [{ ...foreign }] }],
    },
  };
  syncRegistrations(settings, OURS, [{ event: "UserPromptSubmit", timeout: 30 }], "s.json", OWNER);
  expect(settings.hooks).toEqual({
    UserPromptSubmit: [
      { hooks: [foreign, { type: "command", command: "/bin/sh", args: [OURS, "UserPromptSubmit"], timeout: 30 }] },
    ],
    Stop: [{ hooks: [foreign] }],
  });
});

it("updates a handler in place (position, the user's extra keys kept) and drops registrations no longer wanted", () => {
  const settings: Record<string, any> = {
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "node", args: [OURS], timeout: 5, statusMessage: "recovering" }] },
        { hooks: [{ type: "command", command: "mine" }] },
      ],
      Stop: [{ hooks: [{ type: "command", command: OURS, args: [], timeout: 5 }] }],
    },
  };
  syncRegistrations(
    settings,
    OURS,
    [
      { event: "UserPromptSubmit", timeout: 30 },
      { event: "SessionStart", matcher: "compact", timeout: 30 },
    ],
    "s.json",
    OWNER,
  );
  expect(settings.hooks.UserPromptSubmit).toEqual([
    {
      hooks: [
        {
          type: "command",
          command: "/bin/sh",
          args: [OURS, "UserPromptSubmit"],
          timeout: 30,
          statusMessage: "recovering",
        },
      ],
    },
    { hooks: [{ type: "command", command: "mine" }] },
  ]);
  expect(settings.hooks.Stop).toBeUndefined();
  expect(settings.hooks.SessionStart).toEqual([
    { matcher: "compact", hooks: [{ type: "command", command: "/bin/sh", args: [OURS, "SessionStart"], timeout: 30 }] },
  ]);
});

it("refuses an executable path it would not recognise as carryover's again, touching nothing", () => {
  const settings: Record<string, any> = { hooks: { Stop: [{ hooks: [{ type: "command", command: "mine" }] }] } };
  expect(() =>
    syncRegistrations(settings, `${OWNER.binDir}/other`, [{ event: "Stop", timeout: 5 }], "s.json", OWNER),
  ).toThrow(/other: not a carryover-<name> executable/);
  expect(settings).toEqual({ hooks: { Stop: [{ hooks: [{ type: "command", command: "mine" }] }] } });
});

it("removal drops only the groups and lists it emptied; a handler shared with the user's stays theirs", () => {
  const settings: Record<string, any> = {
    hooks: {
      PreCompact: [],
      PostCompact: [
        {
          hooks: [
            { type: "command", command: "mine" },
            { type: "command", command: OURS },
          ],
        },
        { hooks: [{ type: "command", command: OURS }] },
      ],
    },
  };
  expect(removeHandlers(settings, (site) => site.command === OURS, "s.json")).toBe(2);
  expect(settings).toEqual({
    hooks: { PreCompact: [], PostCompact: [{ hooks: [{ type: "command", command: "mine" }] }] },
  });
  expect(listHandlers(settings).map((site) => site.command)).toEqual(["mine"]);
});

it("writes a registration's `if`, gives it to an install from before it, drops one no longer registered", () => {
  const guard = `${OWNER.binDir}/carryover-memory-guard`;
  const run = (event: string) => ({ type: "command", command: "/bin/sh", args: [guard, event], timeout: 10 });
  const settings: Record<string, any> = {
    hooks: {
      PostToolUse: [
        { matcher: "Write|Edit|MultiEdit", hooks: [run("PostToolUse")] },
        { matcher: "Write", hooks: [{ ...run("PostToolUse"), statusMessage: "checking" }] },
      ],
      SessionStart: [{ matcher: "startup", hooks: [{ ...run("SessionStart"), if: "Edit(//**/MEMORY.md)" }] }],
    },
  };
  const registrations = [
    { event: "SessionStart", matcher: "startup", timeout: 10 },
    { event: "PostToolUse", matcher: "Write", if: "Write(//**/MEMORY.md)", timeout: 10 },
    { event: "PostToolUse", matcher: "Edit|MultiEdit", if: "Edit(//**/MEMORY.md)", timeout: 10 },
  ];
  syncRegistrations(settings, guard, registrations, "s.json", OWNER);
  expect(settings.hooks).toEqual({
    PostToolUse: [
      {
        matcher: "Write",
        hooks: [{ ...run("PostToolUse"), statusMessage: "checking", if: "Write(//**/MEMORY.md)" }],
      },
      { matcher: "Edit|MultiEdit", hooks: [{ ...run("PostToolUse"), if: "Edit(//**/MEMORY.md)" }] },
    ],
    SessionStart: [{ matcher: "startup", hooks: [run("SessionStart")] }],
  });
  expect(ownedExecutable(settings.hooks.PostToolUse[1].hooks[0], OWNER)).toBe("carryover-memory-guard");
  expect(removeHandlers(settings, (site) => ownedExecutable(site.handler, OWNER) !== null, "s.json")).toBe(3);
  expect(settings).toEqual({});
});
