// What run needs beyond the probe, loaded only when there may be a level to announce.
export { contextOutput, currentUsage, levelPercent } from "@carryover/core";
export { claimLevel } from "./claim.ts";
export { reminderParts } from "./texts.ts";
