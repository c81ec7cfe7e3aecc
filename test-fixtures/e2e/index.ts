export { requestText } from "../mock-api/text.ts";
export {
  AUTO_COMPACT_INPUT_TOKENS,
  autoCompactEnv,
  mockScript,
  runAutoCompactBetweenTurns,
  runAutoCompactInLoop,
} from "./auto-compact.ts";
export { claudeBin } from "./claude-bin.ts";
export {
  compactionRequest,
  expectNoTextInRequest,
  expectTextInRequest,
  firstMainAfterCompaction,
  lastMainRequest,
} from "./expect.ts";
export { asUser, expectSuccess, runCompact, runPrint } from "./print.ts";
export {
  ensureProbeHook,
  type ProbePayload,
  probeEvents,
  probeHook,
  probeHooks,
  probeStatusLine,
  readProbeLog,
} from "./probe.ts";
export { releaseAtStop, untilReleased } from "./release.ts";
export { createSandbox, projectSlug, type Sandbox } from "./sandbox.ts";
export { shDecides, shOutput } from "./sh-probe.ts";
export { hasTmux, startTui } from "./tui.ts";
export { waitFor } from "./wait.ts";
