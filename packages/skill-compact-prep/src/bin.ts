import { writeSync } from "node:fs";
import { runStateCli } from "./cli.ts";

process.exitCode = runStateCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  nowMs: Date.now(),
  out: (text) => writeSync(1, text),
  err: (text) => writeSync(2, text),
});
