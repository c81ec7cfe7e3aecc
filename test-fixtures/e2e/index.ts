export {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  autoCompactSteps,
  mockScript,
  runAutoCompactBetweenTurns,
  runAutoCompactInLoop,
} from "./auto-compact.ts";
export { claudeBin } from "./claude-bin.ts";
export { inheritedEnv } from "./env.ts";
export {
  compactionRequest,
  expectNoTextInRequest,
  expectTextInRequest,
  firstMainAfterCompaction,
  lastMainRequest,
  summarize,
} from "./expect.ts";
export { asUser, DEFAULT_ALLOWED_TOOLS, expectSuccess, runCompact, runPrint, type PrintOptions, type PrintResult } from "./print.ts";
export {
  ensureProbeHook,
  PROBE_HOOK_PATH,
  probeEvents,
  probeHook,
  probeHooks,
  probeStatusLine,
  readProbeLog,
  type ProbePayload,
} from "./probe.ts";
export { releaseAtStop, untilReleased } from "./release.ts";
export { claudeJsonSeed, createSandbox, projectSlug, TEST_API_KEY, type Sandbox, type SandboxOptions } from "./sandbox.ts";
export { shDecides } from "./sh-probe.ts";
export { hasTmux, startTui, type ScreenOptions, type Tui, type TuiOptions } from "./tui.ts";
export { waitFor, type WaitOptions } from "./wait.ts";
export { requestText } from "../mock-api/text.ts";
