// What run needs beyond the probe, loaded only when something is pinned.
export { contextOutput } from "@carryover/core";
export { digestOf, recordInjection, takePromptTurn } from "./cadence.ts";
export { capWarning, pinnedContext } from "./framing.ts";
export { readPinned } from "./pinned.ts";
