import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import { bundleDeferred, DEFERRED_ENTRY, deferredFooter, deferredImports, deferredPlugin } from "./deferred.mjs";
import { calledFunctions, eagerFunctions } from "./eager.mjs";
import { launchBanner } from "./launch.mjs";

/**
 * The esbuild options of every carryover executable; the bench builds variants from them.
 *
 * @param {string} entry
 * @param {string} outfile
 * @param {string} cwd
 * @returns {import("esbuild").BuildOptions}
 */
function executableOptions(entry, outfile, cwd) {
  return {
    absWorkingDir: cwd,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    minify: true,
    legalComments: "none",
    banner: { js: "#!/usr/bin/env node" },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  };
}

/**
 * Bundles one entry into one executable CommonJS file: a hook's starts with its sh prelude (launch.mjs), anything
 * else with a node shebang; no runtime dependencies, mode 755,
 * and the esbuild metafile beside it (`<outfile>.meta.json`) so a release can tell which core files
 * each bundle contains. CommonJS because Node starts it faster than ESM. The entry's
 * dynamic imports of its own sources are deferred: carried in a comment, compiled when first imported;
 * not in a hook whose package.json `carryover` field says `"deferred": false` (its sh prelude decides every
 * fast path, so Node starts only with work to do, where deferring would only add a second compile).
 * `"eager": [<stdin file>, …]` in that field makes the functions that runs of the executable on those inputs
 * call eager (eager.mjs), for Node's compile cache to keep.
 *
 * @param {{ entry: string, outfile: string, cwd?: string }} options
 * @returns {Promise<{ outfile: string, bytes: number }>}
 */
export async function buildExecutable({ entry, outfile, cwd = process.cwd() }) {
  const outPath = resolve(cwd, outfile);
  mkdirSync(dirname(outPath), { recursive: true });
  const options = executableOptions(entry, outPath, cwd);
  const name = basename(outPath).replace(/\.cjs$/, "");
  const field = packageField(cwd);
  const defers = field?.deferred !== false;
  const paths = defers ? await deferredImports(options) : [];
  const deferred = paths.length > 0 ? await bundleDeferred(options, paths) : null;
  const deferredCarrier = deferred ? deferredFooter(deferred.source, name) : null;
  const plugins = defers ? [deferredPlugin(paths)] : [];
  const banner = { js: await launchBanner(entry, cwd) };
  const result = await build({
    ...options,
    banner,
    metafile: true,
    plugins,
    ...(deferredCarrier ? { footer: { js: deferredCarrier } } : {}),
  });
  const eagerInputs = Array.isArray(field?.eager) ? field.eager.map((file) => resolve(cwd, file)) : [];
  if (eagerInputs.length > 0) makeEager(outPath, eagerInputs);
  chmodSync(outPath, 0o755);
  const metafile = deferred ? withDeferredInputs(result.metafile, deferred.metafile) : result.metafile;
  const bytes = statSync(outPath).size;
  metafile.outputs[Object.keys(metafile.outputs)[0]].bytes = bytes;
  writeFileSync(`${outPath}.meta.json`, JSON.stringify(metafile, null, 1));
  return { outfile: outPath, bytes };
}

function makeEager(file, stdinFiles) {
  const called = calledFunctions(file, stdinFiles);
  writeFileSync(file, eagerFunctions(readFileSync(file, "utf8"), (start) => called.has(start)).source);
}

function packageField(cwd) {
  const path = join(cwd, "package.json");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).carryover : undefined;
}

/** The executable's metafile as if nothing were deferred: its output also lists what the string carries. */
function withDeferredInputs(metafile, deferred) {
  const [outName] = Object.keys(metafile.outputs);
  const output = metafile.outputs[outName];
  const inputs = Object.fromEntries(
    Object.entries(output.inputs).filter(([input]) => !input.startsWith("carryover-deferred:")),
  );
  for (const [input, { bytesInOutput }] of Object.entries(Object.values(deferred.outputs)[0].inputs)) {
    if (input === DEFERRED_ENTRY) continue;
    inputs[input] = { bytesInOutput: (inputs[input]?.bytesInOutput ?? 0) + bytesInOutput };
  }
  const allInputs = { ...deferred.inputs, ...metafile.inputs };
  delete allInputs[DEFERRED_ENTRY];
  for (const input of Object.keys(allInputs)) if (input.startsWith("carryover-deferred:")) delete allInputs[input];
  return { inputs: allInputs, outputs: { ...metafile.outputs, [outName]: { ...output, inputs } } };
}
