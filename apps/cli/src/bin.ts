import { existsSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../package.json";
import { runCli } from "./cli.ts";
import { managedSettingsDir } from "./settings/managed.ts";

// `carryover list | head`: the reader went away; stop quietly as other Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

runCli(
  process.argv.slice(2),
  {
    env: process.env,
    cwd: process.cwd(),
    nowMs: Date.now(),
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    stdoutColumns: process.stdout.columns,
    // Built: dist/carryover.cjs beside dist/release/. In a release dir (scripts/release.mjs) it sits beside
    // manifest.json.
    shippedReleaseDir: existsSync(join(__dirname, "manifest.json")) ? __dirname : join(__dirname, "release"),
    managedSettingsDir: managedSettingsDir(process.platform),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
  packageJson.version,
).then((code) => {
  process.exitCode = code;
});
