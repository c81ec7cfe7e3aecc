import { main } from "@carryover/core";
import { nothingPinned } from "./fast-path.ts";

main({ name: "pin", skip: nothingPinned, load: () => import("./run.ts").then((module) => module.pinHook) });
