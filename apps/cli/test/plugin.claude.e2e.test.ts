import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  runAutoCompactInLoop,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { carryover, claude } from "./cli-run.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

// Offline: the generated marketplace added, hook plugins and the skill plugin installed from it.
it("plugins from the generated marketplace: the hooks fire on a real compaction", async () => {
  sandbox = await createSandbox();
  const market = join(sandbox.root, "market");
  carryover(sandbox, ["marketplace", market]);

  expect(claude(sandbox, ["plugin", "marketplace", "add", market])).toMatch(
    /Successfully added marketplace: carryover/,
  );
  expect(claude(sandbox, ["plugin", "install", "post-compact@carryover"])).toMatch(
    /Successfully installed plugin: post-compact@carryover/,
  );
  expect(claude(sandbox, ["plugin", "install", "recovery@carryover"])).toMatch(
    /Successfully installed plugin: recovery@carryover/,
  );
  expect(claude(sandbox, ["plugin", "install", "compact-prep@carryover"])).toMatch(
    /Successfully installed plugin: compact-prep@carryover/,
  );
  expect(claude(sandbox, ["plugin", "list"])).toMatch(/recovery@carryover[\s\S]*enabled/);

  const debugFile = join(sandbox.root, "claude-debug.txt");
  const sessionId = expectSuccess(await runAutoCompactInLoop(sandbox, { args: ["--debug-file", debugFile] }));
  // ${CLAUDE_PLUGIN_ROOT} in an exec-form `args` entry expands to the marketplace's own plugin dir (2.1.332); the
  // PostCompact debug line shows command and args before expansion, the ledger shows that it ran.
  const debug = readFileSync(debugFile, "utf8");
  expect(debug).toContain(
    "PostCompact:auto [/bin/sh ${CLAUDE_PLUGIN_ROOT}/bin/carryover-post-compact PostCompact] completed with status 0",
  );
  expect(debug).toContain(
    `SessionStart:compact [/bin/sh ${join(market, "plugins/recovery/bin/carryover-recovery")} SessionStart] ` +
      "(plugin recovery@carryover) finished with status 0",
  );
  expect(readFileSync(join(sandbox.claudeDir, "carryover/sessions", sessionId, "compactions.jsonl"), "utf8")).toContain(
    "MOCK SUMMARY",
  );
  expectTextInRequest(
    firstMainAfterCompaction(sandbox.mock.requests()),
    "SessionStart hook additional context: carryover recovery:",
  );
  // The skill plugin: Claude Code lists its skill, namespaced by the plugin.
  expectTextInRequest(sandbox.mock.mainRequests()[0], "compact-prep:compact-prep");
});
