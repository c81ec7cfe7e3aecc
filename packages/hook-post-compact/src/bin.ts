import { main } from "@carryover/core";

main({ name: "post-compact", load: () => import("./run.ts").then((module) => module.postCompactHook) });
