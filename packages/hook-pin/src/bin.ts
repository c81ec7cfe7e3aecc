import { main } from "@carryover/core";
import { pinHook } from "./run.ts";

main(pinHook);
