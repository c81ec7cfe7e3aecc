import { main } from "@carryover/core";
import { hook } from "./hook.ts";

main(hook);
