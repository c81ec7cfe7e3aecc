export { CONTEXT_HELP, runContextReport } from "./command.ts";
