import { statusLineMain } from "@carryover/core";
import { statusLine } from "./hook.ts";

statusLineMain(statusLine);
