import { main } from "@carryover/core";
import { nothingToRecover } from "./fast-path.ts";

main({ name: "recovery", skip: nothingToRecover, load: () => import("./run.ts").then((module) => module.recoveryHook) });
