// What run needs beyond the probe, loaded only when there is something to say.
export { contextOutput } from "@carryover/core";
export { memoryIndexWarning } from "./memory-index.ts";
