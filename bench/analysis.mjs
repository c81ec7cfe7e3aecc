import { kb, mib, table } from "./format.mjs";
import { TARGETS } from "./targets.mjs";

const x = (value) => `${value.toFixed(2)}×`;
const points = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(2)}`;

/** One part per kind of missed target, its reasons computed from the rows of the same run. */
export function missedTargets(results) {
  const parts = [];
  const startupMisses = (results.startup?.targets ?? []).filter((t) => !t.met);
  if (startupMisses.length > 0) parts.push(startupAnalysis(results.startup.rows, startupMisses));
  const prompt = results.prompt?.targets?.[0];
  if (prompt && !prompt.met) parts.push(promptAnalysis(prompt));
  const flat = results.statusline?.flatTarget;
  if (flat && !flat.met) {
    parts.push(
      `### Status line flatness\n\nMeasured ${x(flat.ratio)} in CPU (target ≤ ${TARGETS.flatRatio}). carryover's status line does not open the transcript, so a` +
        " difference here is the run's noise (see the min–max of the two rows), not the file: rerun on a quiet machine with more rounds.",
    );
  }
  const scanMisses = (results.scan?.targets ?? []).filter((t) => !t.met);
  if (scanMisses.length > 0) parts.push(scanAnalysis(scanMisses, results.scan.rows));
  const bundleMisses = (results.bundles?.targets ?? []).filter((t) => !t.met);
  if (bundleMisses.length > 0) parts.push(bundleAnalysis(bundleMisses));
  return parts.join("\n\n");
}

/**
 * Splits each missed path's cost into the shebang launch, loading the bundle, the path's own work and,
 * for a lazy hook's fast path, the deferred code it carries; in CPU time, because on a loaded machine
 * the wall-time differences between these rows drown in the noise.
 */
function startupAnalysis(rows, misses) {
  const node = rows["node -e 0"];
  const shebang = rows["empty executable"];
  const split = misses.map((t) => {
    const row = rows[`${t.hook} ${t.path}`];
    const off = rows[`${t.hook} off`];
    const variant = t.path === "fast" ? rows[`${t.hook} fast, lazy code left out`] : undefined;
    return {
      t,
      row,
      launch: shebang.cpuRatio - 1,
      load: off.cpuRatio - shebang.cpuRatio - (variant ? row.cpuRatio - variant.cpuRatio : 0),
      lazy: variant ? row.cpuRatio - variant.cpuRatio : null,
      work: row.cpuRatio - off.cpuRatio,
    };
  });
  return [
    "### Hook start-up",
    "",
    `\`node -e 0\` took ${node.median.toFixed(1)} ms wall (median) and ${node.cpuMs.toFixed(1)} ms of CPU per run here. Each missed path's CPU`,
    "over `node -e 0`, split with the floor rows of the same run: *launch* is the empty `.cjs` started through",
    "`#!/usr/bin/env node`; *bundle* is the hook switched off (`CARRYOVER=0`: the file loads, the runtime returns) over that,",
    "less the deferred code; *deferred code* is the fast path with `./run.ts` and zod in the file over the bench-built",
    "variant without them (never executed, but V8 still reads and pre-parses them); *own work* is the path over the",
    "switched-off hook (stdin, config files, its checks; on active paths its reads, output and writes). Parts smaller than",
    "the run's noise can come out negative.",
    "",
    table(
      ["path", "wall", "CPU", "missed by (wall)", "launch", "bundle", "deferred code", "own work", "what would close it"],
      split.map((s) => [
        `\`${s.t.hook}\` ${s.t.path}`,
        x(s.t.ratio),
        x(s.row.cpuRatio),
        `${points(s.t.ratio - TARGETS.startupRatio)}×${s.t.rssMiB > TARGETS.startupRssMiB ? `, ${mib(s.t.rssMiB - TARGETS.startupRssMiB)}` : ""}`,
        points(s.launch),
        points(s.load),
        s.lazy === null ? "—" : points(s.lazy),
        points(s.work),
        closeStartup(s),
      ]),
    ),
    "",
    "The levers, measured: the launch is Node's (an executable file found through `env`), the same for any Node hook;",
    "registering hooks in Claude Code's exec form with Node's absolute path (`\"command\": \"/usr/bin/node\", \"args\": [file]`)",
    "would skip the `env` exec, and nothing else short of not being a Node process removes it. The bundle part is what the",
    "file's size costs to read and compile (see the bundle sizes below). The deferred-code column is what moving the active",
    "path out of the file the fast path loads would save.",
  ].join("\n");
}

function closeStartup({ row, launch, load, lazy, work }) {
  if (row.cpuRatio <= TARGETS.startupRatio) return "CPU within target: the wall figure is this run's load; rerun on a quiet machine";
  const largest = Math.max(launch, load, lazy ?? Number.NEGATIVE_INFINITY, work);
  if (largest === launch) return "the launch dominates: exec form with Node's absolute path";
  if (largest === lazy) return "keep the active path's code (and zod) out of the fast path's file";
  if (largest === load) return "a smaller bundle (below)";
  return "less work on the path (fewer file-system calls, no config read when nothing is configured)";
}

function promptAnalysis(t) {
  return [
    "### The whole per-prompt cost",
    "",
    `All UserPromptSubmit hooks on their fast paths, started together: ${x(t.ratio)} one \`node -e 0\`, ${x(t.ratio / t.floorRatio)} the same number of`,
    `\`node -e 0\` started together (target ≤ ${TARGETS.startupRatio}×: missed by ${points(t.ratio / t.floorRatio - TARGETS.startupRatio)}×). Each hook's own excess`,
    "adds up here (see above). The floor itself is Node: on this 2-core machine the processes of one prompt compete for the",
    "cores. What would close the rest: the per-hook fixes above; what would lower the floor is fewer processes per prompt",
    "(one dispatcher registered once for UserPromptSubmit, running the installed hooks' fast paths in one Node process), at",
    "the price of hooks no longer being installable one by one.",
  ].join("\n");
}

function scanAnalysis(misses, rows) {
  const at = (sizeMB, prefix) => rows.find((r) => r.sizeMB === sizeMB && r.row.name.startsWith(prefix))?.row;
  const cpuMet = misses.some((t) => t.cpuMBps >= TARGETS.scanMBps);
  return [
    "### Transcript scan",
    "",
    table(
      ["size", "net of start-up", "missed by", "per CPU-second", "time ÷ readline's", "time ÷ jq's", "peak RSS"],
      misses.map((t) => [
        `${t.sizeMB.toFixed(0)} MB`,
        t.netMBps > 0 ? `${t.netMBps.toFixed(0)} MB/s` : "—",
        `${(TARGETS.scanMBps - Math.max(0, t.netMBps)).toFixed(0)} MB/s${t.rssMiB > TARGETS.scanRssMiB ? `, ${mib(t.rssMiB - TARGETS.scanRssMiB)}` : ""}`,
        `${t.cpuMBps.toFixed(0)} MB/s`,
        (at(t.sizeMB, "carryover").median / at(t.sizeMB, "readline").median).toFixed(2),
        (at(t.sizeMB, "carryover").median / at(t.sizeMB, "jq").median).toFixed(2),
        mib(t.rssMiB),
      ]),
    ),
    "",
    "Memory stays flat (1 MiB chunks, only candidate lines decoded) and the scanner's lead over readline + JSON.parse grows",
    "with the file, as a pre-filter's should. The small files are dominated by Node's start-up, so their net figure is the",
    "difference of two noisy medians.",
    cpuMet
      ? "Per CPU-second the scanner reaches the target on the larger files: what the wall figure lacks is this run's share of the cores."
      : "In this run the cores were shared (see the load), which inflates CPU time too, so the run cannot tell the scanner's limit from the load.",
    "What would close it, in order: rerun `pnpm bench -- --only scan` on a quiet machine; if it still misses, profile",
    "`bench/.cache/carryover-scan.cjs` with `node --cpu-prof` on the 500 MB file: the share of `JSON.parse` says whether the",
    "pre-filter lets too many lines through (bookkeeping lines repeat tool calls), the share of `indexOf` whether the",
    "needle search over each chunk is the limit.",
  ].join("\n");
}

function bundleAnalysis(misses) {
  const zodBytes = Math.max(...misses.map((t) => t.parts?.zod ?? 0));
  const lines = [
    "### Bundle size",
    "",
    table(
      ["executable", "size", "over by", "ceiling set", "largest inputs besides zod"],
      misses.map((t) => [
        `\`${t.name}\``,
        kb(t.bytes),
        kb(t.bytes - TARGETS.bundleBytes),
        t.ceiling ? kb(t.ceiling) : "none",
        t.parts
          ? t.parts.largest
              .filter((entry) => !entry.input.includes("zod/"))
              .slice(0, 3)
              .map((entry) => `${entry.input} ${kb(entry.bytes)}`)
              .join(", ")
          : "?",
      ]),
    ),
    "",
  ];
  if (zodBytes > 0) {
    lines.push(
      `Why: every hook that validates its payload carries zod/mini, ${kb(zodBytes)} minified, ${((zodBytes / TARGETS.bundleBytes) * 100).toFixed(0)}% of the`,
      `30 KB budget, leaving ${kb(TARGETS.bundleBytes - zodBytes)} for core's runtime and config table and the hook itself; core alone is 15–29 KB.`,
      "The status line, which reads its stdin by hand, is the one hook within the target. What would close it: hand-written",
      "guards in core for the few payload fields each hook reads, instead of zod schemas, would take zod out of every file",
      "(measured earlier on this kind of machine: a hand-written guard starts at 1.01× `node -e 0`, zod/mini at 1.07×); past",
      "that, core's config key table (every hook's keys, ≈ 4.4 KB) could be split per section, and the transcript scanner",
      "(≈ 9 KB with its collector) is in the two hooks that scan. Until then each ceiling in `bundle-size.json` is the size at",
      "the time it was set, rounded up to the next 1,000 bytes past a 500-byte margin.",
    );
  }
  return lines.join("\n");
}
