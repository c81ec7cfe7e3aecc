import { join } from "node:path";
import packageJson from "../package.json";
import { runCli } from "./cli.ts";
import { managedSettingsDir } from "./managed-settings.ts";

runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  nowMs: Date.now(),
  stdoutIsTty: process.stdout.isTTY === true,
  stderrIsTty: process.stderr.isTTY === true,
  stdoutColumns: process.stdout.columns,
  shippedReleaseDir: join(__dirname, "release"),
  managedSettingsDir: managedSettingsDir(process.platform),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}, packageJson.version).then((code) => {
  process.exitCode = code;
});
