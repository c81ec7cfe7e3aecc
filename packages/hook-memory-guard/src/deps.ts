// What run needs beyond the probe, loaded only when there is something to check.
export { autoMemoryDir, contextOutput, isAutoMemoryEnabled } from "@carryover/core";
export { checkMemoryIndex, memoryIndexWarning } from "./memory-index.ts";
