import { main } from "@carryover/core";

main({ name: "pre-compact", load: () => import("./run.ts").then((module) => module.preCompactHook) });
