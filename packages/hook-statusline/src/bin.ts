import { statusLineMain } from "@carryover/core";
import { statusLine } from "./run.ts";

statusLineMain(statusLine);
