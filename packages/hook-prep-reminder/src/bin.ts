import { main } from "@carryover/core";
import { nothingPending } from "./fast-path.ts";

main({ name: "prep-reminder", skip: nothingPending, load: () => import("./run.ts").then((module) => module.prepReminderHook) });
