import { writeSync } from "node:fs";
import { runStateCli } from "./cli.ts";

const code = runStateCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  nowMs: Date.now(),
  // Only `write` reads it: a getter, so the other commands never open stdin.
  get stdin() {
    return process.stdin;
  },
  out: (text) => writeSync(1, text),
  err: (text) => writeSync(2, text),
});
Promise.resolve(code).then((exitCode) => {
  process.exitCode = exitCode;
});
