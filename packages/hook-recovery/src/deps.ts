// What run needs beyond the probe, loaded only when a compaction may need recovering.
export {
  COMPACTED_MARKER,
  contextOutput,
  readMarker,
  recordRecoveryDelivered,
  takePendingCompaction,
  transcriptPath,
} from "@carryover/core";
export { claimRecovery } from "./claim.ts";
export { gatherFacts } from "./facts.ts";
export { hookContextSinceLastBoundary } from "./hook-context.ts";
export { RECOVERY_HEADING, renderRecovery } from "./render.ts";
