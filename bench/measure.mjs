import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * @typedef {{
 *   command: string,
 *   args?: string[],
 *   input?: string | Buffer,
 *   env?: Record<string, string>,
 *   cwd?: string,
 * }} Proc
 * @typedef {{
 *   name: string,
 *   proc?: Proc,
 *   procs?: Proc[],
 *   parallel?: boolean,
 *   setup?: () => void,
 *   check?: (outputs: string[]) => string | null,
 *   repeats?: number,
 *   rssFloor?: Proc,
 * }} Case
 *   One process (`proc`), or several (`procs`) started together (`parallel`, as Claude Code starts the
 *   hooks of one event) or one after the other. `setup` runs before every run, outside the timing.
 *   `check` sees the stdout of a run made before the timed ones and returns a problem or null.
 *   `repeats` runs it that many times a round (1): more samples for a figure judged against a target.
 *   `rssFloor`: a process whose peak RSS is measured beside the case's, in the same rounds (its `rssFloorMiB`).
 * @typedef {{
 *   name: string,
 *   median: number,
 *   min: number,
 *   max: number,
 *   ratio: { median: number, min: number, max: number },
 *   rssMiB: number,
 *   rssFloorMiB: number | null,
 *   cpuMs: number,
 *   cpuRatio: number,
 * }} Row
 */

/**
 * Runs every case `runs` times, interleaved (a, b, c, a, b, c, …) so that the machine's drift hits
 * every case alike. Each run's time is divided by the baseline's time in the same round, and the
 * ratios' median/min/max are reported with the wall times (ms). With `paired`, every run of a case
 * gets a baseline run of its own right beside it (before it in even rounds, after it in odd ones) and
 * is divided by that one: on a shared machine a baseline timed a whole round earlier drifts by several
 * percent, more than the differences a start-up table is about. CPU time (user + sys of the case's
 * processes, all threads) is the mean over the timed runs: a loaded machine stretches it far less than
 * wall time. Peak RSS comes from separate runs under GNU time, so its fork does not count in the
 * timings; for several processes it is the sum of their peaks (they run at the same time).
 *
 * @param {Case[]} cases the first one is the baseline (run once a round)
 * @param {{
 *   runs?: number,
 *   warmup?: number,
 *   rssRuns?: number,
 *   paired?: boolean,
 *   onProgress?: (text: string) => void,
 * }} [options]
 * @returns {Promise<Row[]>}
 */
export async function measure(cases, { runs = 30, warmup = 3, rssRuns = 3, paired = false, onProgress } = {}) {
  for (const c of cases) {
    const problem = await probe(c);
    if (problem) throw new Error(`${c.name}: ${problem}`);
  }
  const times = cases.map(() => []);
  // The round of each sample: unpaired, a sample is divided by that round's baseline.
  const roundOf = cases.map(() => []);
  const cpu = cases.map(() => 0);
  // The baseline's time and CPU beside each run (paired), else the round's one baseline run.
  const besides = cases.map(() => []);
  const besideCpu = cases.map(() => 0);
  for (let round = 0; round < warmup + runs; round++) {
    for (const [i, c] of cases.entries()) {
      for (let repeat = 0; repeat < (c.repeats ?? 1); repeat++) {
        const pair = paired && i > 0 ? ((round + repeat) % 2 === 0 ? [cases[0], c] : [c, cases[0]]) : [c];
        const timed = [];
        for (const one of pair) timed.push({ one, ...(await timedRun(one)) });
        if (round < warmup) continue;
        const own = timed.find((t) => t.one === c);
        const base = timed.find((t) => t.one === cases[0]);
        times[i].push(own.ms);
        roundOf[i].push(round - warmup);
        cpu[i] += own.cpuMs;
        if (base && base !== own) {
          besides[i].push(base.ms);
          besideCpu[i] += base.cpuMs;
        }
      }
    }
    onProgress?.(`round ${round + 1}/${warmup + runs}`);
  }
  const rss = cases.map(() => 0);
  const rssFloor = cases.map((c) => (c.rssFloor ? 0 : null));
  for (let round = 0; round < rssRuns; round++) {
    for (const [i, c] of cases.entries()) {
      c.setup?.();
      const outputs = await runCase(c, "ignore", true);
      rss[i] = Math.max(rss[i], outputs.reduce((sum, o) => sum + o.rssKiB, 0) / 1024);
      if (c.rssFloor) rssFloor[i] = Math.max(rssFloor[i], (await runAsync(c.name, c.rssFloor, true)).rssKiB / 1024);
    }
  }
  return cases.map((c, i) => {
    const hasPairs = besides[i].length > 0;
    const beside = (k) => (hasPairs ? besides[i][k] : times[0][roundOf[i][k]]);
    const cpuMs = cpu[i] / times[i].length;
    return {
      name: c.name,
      ...stats(times[i]),
      ratio: stats(times[i].map((ms, k) => ms / beside(k))),
      rssMiB: rss[i],
      rssFloorMiB: rssFloor[i],
      cpuMs,
      cpuRatio: cpuMs / (hasPairs ? besideCpu[i] / besides[i].length : cpu[0] / times[0].length),
    };
  });
}

/** One timed run with its setup (outside the timing): wall ms and the CPU of its processes. */
async function timedRun(c) {
  c.setup?.();
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  await runCase(c, "ignore");
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: childrenCpuMs() - cpuBefore };
}

/** One untimed run with its setup: the case's problem (a failed check, a failed run), or null. */
export async function probe(c) {
  try {
    c.setup?.();
    const outputs = await runCase(c, "pipe");
    return c.check?.(outputs.map((o) => o.stdout)) ?? null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const TICKS_PER_S = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/**
 * CPU time of this process's waited-for children so far (/proc/self/stat cutime + cstime). In clock
 * ticks, but the kernel accumulates nanoseconds: the differences add up to the exact total.
 */
function childrenCpuMs() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of proc(5), counted from the state (field 3) here.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_S;
}

/** @returns {Promise<Array<{ stdout: string, rssKiB: number }>>} */
async function runCase(c, stdout, underTime = false) {
  const procs = c.procs ?? [c.proc];
  if (procs.length === 1 && !underTime) return [runSync(c.name, procs[0], stdout)];
  if (!c.parallel && !underTime) return procs.map((proc) => runSync(c.name, proc, stdout));
  if (!c.parallel) {
    const outputs = [];
    for (const proc of procs) outputs.push(await runAsync(c.name, proc, underTime));
    return outputs;
  }
  return Promise.all(procs.map((proc) => runAsync(c.name, proc, underTime)));
}

function runSync(name, proc, stdout) {
  const result = spawnSync(proc.command, proc.args ?? [], {
    input: proc.input ?? "",
    env: proc.env ?? process.env,
    cwd: proc.cwd,
    stdio: ["pipe", stdout, "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  // A hook decided in sh exits without reading its stdin, as Claude Code 2.1.332 lets it: EPIPE is fine.
  if (result.error && result.error.code !== "EPIPE") throw new Error(`${name}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${name}: exit ${result.status}: ${String(result.stderr).slice(0, 300)}`);
  return { stdout: stdout === "pipe" ? String(result.stdout) : "", rssKiB: 0 };
}

function runAsync(name, proc, underTime) {
  const [command, args] = underTime
    ? ["/usr/bin/time", ["-f", "%M", proc.command, ...(proc.args ?? [])]]
    : [proc.command, proc.args ?? []];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: proc.env ?? process.env,
      cwd: proc.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) => reject(new Error(`${name}: ${error.message}`)));
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString();
      if (code !== 0) return reject(new Error(`${name}: exit ${code}: ${stderr.slice(0, 300)}`));
      const stdout = Buffer.concat(out).toString();
      if (!underTime) return resolve({ stdout, rssKiB: 0 });
      const rssKiB = Number(stderr.trim().split("\n").at(-1));
      if (!Number.isFinite(rssKiB))
        return reject(new Error(`${name}: GNU time printed no peak RSS: ${stderr.slice(-200)}`));
      resolve({ stdout, rssKiB });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(proc.input ?? "");
  });
}

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1) };
}
