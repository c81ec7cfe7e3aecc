// What run needs, loaded only when it runs (CARRYOVER=0 starts nothing of it).
export { appendLedger, forgetReading, markCompacted, rearmLevels, recordCompaction, summaryOf } from "@carryover/core";
