import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import { prelude } from "./prelude.mjs";

/**
 * How the executable built from `entry` starts: a hook's (the package.json `carryover` field names one) through
 * the sh prelude, with the probes its `src/hook.ts` exports as `shFastPath` (per event, sh beside the hook's Node
 * probe) and the events it can also handle in sh, as `shRun` (a status line: the renders it can do in sh, as
 * `shRender`); anything else, the CLI and its helpers, through
 * `#!/usr/bin/env node`.
 *
 * @param {string} entry
 * @param {string} cwd the package's dir
 * @returns {Promise<string>} the text before the bundle
 */
export async function launchBanner(entry, cwd) {
  const field = packageField(cwd);
  if (!field?.hook) return "#!/usr/bin/env node";
  const hookFile = join(dirname(resolve(cwd, entry)), "hook.ts");
  const { probes, runs, render } = existsSync(hookFile) ? await shExports(hookFile, cwd) : { probes: {}, runs: {} };
  return prelude({ hook: field.hook, statusLine: field.statusLine === true, probes, runs, render }).trimEnd();
}

function packageField(cwd) {
  const path = join(cwd, "package.json");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).carryover : undefined;
}

/**
 * The hook file's `shFastPath`, `shRun` and (a status line's) `shRender` exports, read by running its bundle (a hook
 * file only defines things).
 */
async function shExports(hookFile, cwd) {
  const result = await build({
    entryPoints: [hookFile],
    absWorkingDir: cwd,
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const module = { exports: {} };
  new Function("module", "exports", "require", result.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(hookFile),
  );
  const probes = module.exports.shFastPath ?? {};
  const runs = module.exports.shRun ?? {};
  for (const [name, table] of [
    ["shFastPath", probes],
    ["shRun", runs],
  ]) {
    for (const [event, sh] of Object.entries(table)) {
      if (typeof sh !== "string") throw new Error(`${hookFile}: ${name}.${event} is not a string of sh`);
    }
  }
  const render = module.exports.shRender;
  if (render !== undefined && typeof render !== "string")
    throw new Error(`${hookFile}: shRender is not a string of sh`);
  return { probes, runs, render };
}
