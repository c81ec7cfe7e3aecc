import { main } from "@carryover/core";
import { postCompactHook } from "./run.ts";

main(postCompactHook);
