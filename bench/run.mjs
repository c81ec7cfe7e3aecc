// `pnpm bench`: builds (the root script), then measures and writes BENCHMARKS.md. Not part of `pnpm test`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_VERSIONS, nodeBinDir } from "../scripts/nodes.mjs";
import { buildKit } from "./build-kit.mjs";
import { discoverHooks } from "./hooks.mjs";
import { machine } from "./machine.mjs";
import { ensurePeers } from "./peers.mjs";
import { report } from "./report.mjs";
import { removeSandboxes } from "./sandbox.mjs";
import { bundleSection } from "./sections/bundles.mjs";
import { recallSection } from "./sections/recall.mjs";
import { scanSection } from "./sections/scan.mjs";
import { perPromptSection, startupSection } from "./sections/startup.mjs";
import { statusLineSection } from "./sections/statusline.mjs";
import { transcriptStore } from "./transcripts.mjs";

const SECTIONS = ["startup", "prompt", "statusline", "scan", "bundles", "recall"];
/** Run once per supported Node; the others once. */
const PER_NODE = new Set(["startup", "prompt", "statusline"]);
const USAGE = `usage: pnpm bench [-- --only ${SECTIONS.join(",")}] [--node ${NODE_VERSIONS.join(",")}]
                  [--runs N] [--quick] [--out FILE]
  --only    run these sections (default: all; a partial run writes bench/results/latest.md, not BENCHMARKS.md)
  --node    the Node versions of the per-Node sections (default: every supported one; a subset is a partial run)
  --runs    rounds per start-up and status line case (default 40; --quick: 12)
  --quick   fewer rounds, and scans of 10 and 100 MB only
  --out     where the report goes`;

function parseArgs(argv) {
  const options = { only: SECTIONS, nodes: NODE_VERSIONS, runs: 40, quick: false, out: null };
  const args = argv.filter((arg) => arg !== "--");
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      if (i + 1 >= args.length) fail(`${arg} needs a value`);
      return args[++i];
    };
    if (arg === "--only") {
      options.only = value().split(",").filter(Boolean);
      const unknown = options.only.filter((name) => !SECTIONS.includes(name));
      if (unknown.length > 0) fail(`unknown section ${unknown.join(", ")}; sections: ${SECTIONS.join(", ")}`);
    } else if (arg === "--node") {
      options.nodes = value().split(",").filter(Boolean);
      const unknown = options.nodes.filter((version) => !NODE_VERSIONS.includes(version));
      if (unknown.length > 0) fail(`unsupported Node ${unknown.join(", ")}; supported: ${NODE_VERSIONS.join(", ")}`);
    } else if (arg === "--runs") {
      options.runs = Number(value());
      if (!Number.isInteger(options.runs) || options.runs < 3) fail("--runs takes a whole number ≥ 3");
    } else if (arg === "--quick") {
      options.quick = true;
    } else if (arg === "--out") {
      options.out = value();
    } else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else {
      fail(`unknown argument ${arg}`);
    }
  }
  if (options.quick && !argv.includes("--runs")) options.runs = 12;
  return options;
}

function fail(message) {
  process.stderr.write(`bench: ${message} (--help for usage)\n`);
  process.exit(2);
}

/** The bench's own tools, from Debian when missing: GNU time (peak RSS), jq (the scan comparison). */
function ensureTool(command, debianPackage, log) {
  if (spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0) return;
  log(`${command} is missing; installing the Debian package ${debianPackage}`);
  const install =
    `apt-get install -y ${debianPackage} >/dev/null || ` +
    `(apt-get update >/dev/null && apt-get install -y ${debianPackage} >/dev/null)`;
  if (spawnSync("sh", ["-c", install], { stdio: "inherit" }).status !== 0)
    throw new Error(`${command} is needed: apt-get install -y ${debianPackage}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const benchDir = dirname(fileURLToPath(import.meta.url));
  const root = dirname(benchDir);
  const cacheDir = join(benchDir, ".cache");
  const payloadsDir = join(root, "test-fixtures/payloads");
  const startedAt = new Date();
  const log = (text) => process.stderr.write(`bench: ${text}\n`);
  const only = new Set(options.only);
  const complete =
    SECTIONS.every((name) => only.has(name)) && NODE_VERSIONS.every((version) => options.nodes.includes(version));
  const out =
    options.out ?? (complete && !options.quick ? join(root, "BENCHMARKS.md") : join(benchDir, "results/latest.md"));

  mkdirSync(cacheDir, { recursive: true });
  ensureTool("/usr/bin/time", "time", log);
  const before = machine();
  const hooks = discoverHooks(root);
  log(`hooks: ${hooks.map((hook) => `${hook.hook}${hook.built ? "" : " (not built)"}`).join(", ")}`);
  const { kit, scannerPath } = await buildKit(benchDir);
  // The status line's command exactly as `carryover install` writes it.
  for (const hook of hooks) if (hook.statusLine) hook.shellCommand = kit.statusLineCommand(hook.binPath);
  const transcripts = transcriptStore(kit, join(payloadsDir, "transcript-sample.jsonl"), log);
  const sections = {
    startup: () =>
      startupSection({ benchDir, hooks, kit, payloadsDir, transcripts, cacheDir, runs: options.runs, log }),
    prompt: () => perPromptSection({ hooks, kit, payloadsDir, transcripts, runs: options.runs, log }),
    statusline: () => {
      const peers = ensurePeers(benchDir, log);
      const statusTranscripts = { small: transcripts.generate(1e6, 0), large: transcripts.repeated(100e6, 10) };
      return statusLineSection({
        hooks,
        kit,
        payloadsDir,
        transcripts: statusTranscripts,
        peers,
        runs: options.runs,
        log,
      });
    },
    scan: () => {
      ensureTool("jq", "jq", log);
      const sizes = options.quick ? [10e6, 100e6] : [10e6, 100e6, 500e6];
      return scanSection({
        benchDir,
        scannerPath,
        transcripts: sizes.map((bytes) => transcripts.generate(bytes, 3)),
        log,
      });
    },
    bundles: () => bundleSection({ root }),
    recall: () => recallSection({ root, benchDir, log }),
  };
  const results = { byNode: {} };
  const failed = [];
  // A section that fails (a hook changed under its case file) is reported in the file; the others still run.
  const runSection = async (name, into, label) => {
    try {
      into[name] = await sections[name]();
    } catch (error) {
      log(`${label} failed: ${error instanceof Error ? error.stack : String(error)}`);
      into[name] = { error: error instanceof Error ? error.message : String(error) };
      failed.push(label);
    }
  };
  const machinePath = process.env.PATH ?? "";
  try {
    for (const version of options.nodes) {
      const binDir = nodeBinDir(version);
      if (!existsSync(join(binDir, "node")))
        throw new Error(`Node ${version} is not in ${binDir}: node scripts/nodes.mjs fetch installs it`);
      // The sandboxes' PATH, so every `node` a case starts (hooks' preludes included) is this one.
      process.env.PATH = `${binDir}:${machinePath}`;
      results.byNode[version] = {};
      for (const name of SECTIONS.filter((section) => only.has(section) && PER_NODE.has(section))) {
        log(`${name} on Node ${version}`);
        await runSection(name, results.byNode[version], `${name} (Node ${version})`);
      }
    }
    process.env.PATH = machinePath;
    for (const name of SECTIONS.filter((section) => only.has(section) && !PER_NODE.has(section)))
      await runSection(name, results, name);
  } finally {
    transcripts.remove();
    removeSandboxes();
  }
  const after = machine();
  const text = report({ results, before, after, startedAt, options, hooks, complete });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  log(`wrote ${out}`);
  if (failed.length > 0) {
    log(`failed sections: ${failed.join(", ")} (their error is in the report)`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
  removeSandboxes();
  process.exit(1);
});
