import { spawnSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

/** The machine and how busy it is right now (the report states the load at the start and the end). */
export function machine() {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    memGiB: totalmem() / 1024 ** 3,
    node: process.version,
    jq: spawnSync("jq", ["--version"], { encoding: "utf8" }).stdout?.trim() || "missing",
    /** 1, 5 and 15 minute load averages. */
    loadavg: loadavg(),
  };
}
