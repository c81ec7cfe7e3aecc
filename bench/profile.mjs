import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsArgv } from "./hook-runs.mjs";

const INTERVAL_US = 50;

/** The script a process runs: a hook's `file` (started as `node <file>`), else the command itself. */
const scriptOf = (proc) => proc.file ?? proc.command;

/**
 * Where a hook process's CPU goes, from V8 CPU profiles of `runs` runs (`node --cpu-prof`, one sample every
 * 50 µs), in mean ms per run: compiling the hook's file (`wrapSafe`, where Node hands the source to V8),
 * running the hook's own code (every frame from its file), garbage collection, and the rest of Node
 * (boot, module loader, fs bindings). The profiler slows everything alike; the shares are what to read.
 */
export function profileCase(c, runs) {
  return profileRuns(
    c,
    runs,
    (parts, frame, ms) => {
      if (frame.functionName === "(idle)") return;
      if (frame.functionName === "(garbage collector)") parts.gc += ms;
      else if (frame.functionName === "wrapSafe") parts.compile += ms;
      else if (frame.url.endsWith(scriptOf(c.proc))) parts.hook += ms;
      else parts.node += ms;
    },
    { compile: 0, hook: 0, gc: 0, node: 0 },
  );
}

/**
 * Where a scan's wall time goes, from one profile: the main thread idle (waiting for a chunk to be
 * read), Buffer.indexOf (the byte-level pre-filter), the scanner's own JavaScript (decoding candidate
 * lines, JSON.parse, which V8 reports inside its caller, and collecting), GC, and the rest of Node.
 */
export function profileScan(c) {
  return profileRuns(
    c,
    1,
    (parts, frame, ms) => {
      if (frame.functionName === "(idle)") parts.idle += ms;
      else if (frame.functionName === "(garbage collector)") parts.gc += ms;
      else if (frame.functionName === "indexOfBuffer" || frame.functionName === "indexOf") parts.indexOf += ms;
      else if (frame.url.endsWith(scriptOf(c.proc))) parts.scanner += ms;
      else parts.node += ms;
    },
    { idle: 0, indexOf: 0, scanner: 0, gc: 0, node: 0 },
  );
}

function profileRuns(c, runs, classify, parts) {
  const dir = mkdtempSync(join(tmpdir(), "carryover-bench-profile-"));
  try {
    for (let i = 0; i < runs; i++) {
      c.setup?.();
      const { input = "", env, cwd } = c.proc;
      const flags = ["--cpu-prof", `--cpu-prof-interval=${INTERVAL_US}`, `--cpu-prof-dir=${dir}`];
      const result = spawnSync("node", [...flags, ...jsArgv(c.proc)], { input, env, cwd });
      if (result.status !== 0)
        throw new Error(`${c.name}: exit ${result.status} under --cpu-prof: ${String(result.stderr).slice(-200)}`);
    }
    const files = readdirSync(dir);
    for (const file of files) {
      const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
      const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
      for (let i = 0; i < profile.samples.length; i++)
        classify(parts, frames.get(profile.samples[i]), (profile.timeDeltas[i + 1] ?? 0) / 1000);
    }
    for (const key of Object.keys(parts)) parts[key] /= files.length;
    return parts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
