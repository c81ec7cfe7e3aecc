import { main } from "@carryover/core";
import { nothingToSay } from "./fast-path.ts";

main({ name: "memory-guard", skip: nothingToSay, load: () => import("./run.ts").then((module) => module.memoryGuardHook) });
