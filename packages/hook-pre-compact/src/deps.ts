// What run needs, loaded only when it runs (CARRYOVER=0 starts nothing of it).
export {
  carryoverOwnPaths,
  changesLogPath,
  errorMessage,
  homeDir,
  isAutoMemoryEnabled,
  readCompactionStarts,
  readLedger,
  readTmuxWindow,
  recordCompactionStart,
  transcriptPath,
} from "@carryover/core";
export { writeChangesLog } from "./changes-log.ts";
export { earlierSummaries } from "./earlier.ts";
export { writePreCompactJournal } from "./journal.ts";
export { writeMemoryEntry } from "./memory-entry.ts";
export { readPrepState } from "./prep-state.ts";
export { readFacts, writeSnapshot } from "./snapshot.ts";
export { steeringText } from "./steering.ts";
