import { contextMain } from "./command.ts";

contextMain(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  nowMs: Date.now,
  stdout: { isTTY: process.stdout.isTTY === true, columns: process.stdout.columns, write: (text) => void process.stdout.write(text) },
  stderr: { isTTY: process.stderr.isTTY === true, write: (text) => void process.stderr.write(text) },
}).then((code) => {
  process.exitCode = code;
});
