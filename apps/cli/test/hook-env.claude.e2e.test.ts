// The environment the real Claude Code 2.1.332 starts hooks with: settings files' "env" over its own, in its
// layer order. `carryover config` and doctor read a CARRYOVER_* variable where the hooks will find it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, expectSuccess, runPrint, type Sandbox } from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { carryover } from "./cli-run.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("hooks get CARRYOVER_* from settings.json env over the shell's, local > project > user; config too", async () => {
  const dump = { type: "command", command: "/bin/sh", args: ["-c", 'env > "$HOME/hook-env.txt"'], timeout: 10 };
  sandbox = await createSandbox({
    settings: {
      env: { CARRYOVER_PIN_EVERY_TURNS: "7", CARRYOVER_LEVELS: "10", CARRYOVER_PIN_MAX_BYTES: 5000 },
      hooks: { UserPromptSubmit: [{ hooks: [dump] }] },
    },
  });
  mkdirSync(join(sandbox.project, ".claude"));
  writeFileSync(join(sandbox.project, ".claude/settings.json"), JSON.stringify({ env: { CARRYOVER_LEVELS: "30" } }));
  const local = { env: { CARRYOVER_LEVELS: "20" } };
  writeFileSync(join(sandbox.project, ".claude/settings.local.json"), JSON.stringify(local));
  const shell = { CARRYOVER_PIN_EVERY_TURNS: "1", CARRYOVER_DEBUG: "0" };
  expectSuccess(await runPrint(sandbox, "one prompt", { env: shell }));
  const hookEnv = readFileSync(join(sandbox.home, "hook-env.txt"), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("CARRYOVER_"))
    .sort();
  expect(hookEnv).toEqual([
    "CARRYOVER_DEBUG=0",
    "CARRYOVER_LEVELS=20",
    "CARRYOVER_PIN_EVERY_TURNS=7",
    "CARRYOVER_PIN_MAX_BYTES=5000",
  ]);
  const shellSandbox = { ...sandbox, env: { ...sandbox.env, ...shell } };
  const value = (...key: string[]) => JSON.parse(carryover(shellSandbox, ["config", ...key, "--json"])).value;
  expect([value("levels"), value("pin", "everyTurns"), value("pin", "maxBytes")]).toEqual([[20], 7, 5000]);
});
