import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { jsArgv } from "./hook-runs.mjs";
import { stats } from "./measure.mjs";

const MARK = "BENCH-JS-CPU-US ";

/**
 * The CPU a hook's own JavaScript takes (loading its file and running the path), measured inside the
 * process by a preloaded probe (`js-cpu.cjs`): microseconds from `process.cpuUsage`, far finer than the
 * process-level figure and untouched by Node's boot. Median of `runs` runs, each after the case's setup.
 * The launch is not part of this figure, nor a hook's sh prelude: its file runs as `node <file>`.
 */
export function jsCpuMs(benchDir, c, runs) {
  const values = [];
  for (let i = 0; i < runs; i++) {
    c.setup?.();
    const { input = "", env, cwd } = c.proc;
    const result = spawnSync("node", ["-r", join(benchDir, "js-cpu.cjs"), ...jsArgv(c.proc)], {
      input,
      env,
      cwd,
      encoding: "utf8",
    });
    const line = result.stderr.split("\n").find((text) => text.startsWith(MARK));
    if (result.status !== 0 || !line)
      throw new Error(`${c.name}: no in-process CPU figure (exit ${result.status}): ${result.stderr.slice(-200)}`);
    values.push(Number(line.slice(MARK.length)) / 1000);
  }
  return stats(values).median;
}
