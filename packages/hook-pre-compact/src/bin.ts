import { main } from "@carryover/core";
import { preCompactHook } from "./run.ts";

main(preCompactHook);
