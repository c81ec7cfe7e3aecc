import { kb, mib } from "./format.mjs";
import { TARGETS } from "./targets.mjs";

const x = (value) => `${value.toFixed(2)}×`;
const points = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(2)}`;

/** One paragraph per missed target, its reasons computed from the rows of the same run. */
export function missedTargets(results) {
  const parts = [];
  const startupMisses = (results.startup?.targets ?? []).filter((t) => !t.met);
  if (startupMisses.length > 0) parts.push(startupAnalysis(results.startup.rows, startupMisses));
  const prompt = results.prompt?.targets?.[0];
  if (prompt && !prompt.met) parts.push(promptAnalysis(results.prompt.rows, prompt));
  const statusMisses = (results.statusline?.targets ?? []).filter((t) => !t.met);
  if (statusMisses.length > 0) parts.push(statusAnalysis(results, statusMisses));
  const flat = results.statusline?.flatTarget;
  if (flat && !flat.met) {
    parts.push(
      `### Status line flatness\n\nMeasured ${x(flat.ratio)} (target ≤ ${TARGETS.flatRatio}). carryover's status line does not open the transcript, so a` +
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
 * Splits a path's cost into the shebang launch, loading the bundle, and the path's own work, in CPU
 * time: on a loaded machine the wall-time differences between these rows drown in the noise.
 */
function startupAnalysis(rows, misses) {
  const node = rows["node -e 0"];
  const shebang = rows["empty executable"];
  const lines = ["### Hook start-up", ""];
  lines.push(
    `\`node -e 0\` took ${node.median.toFixed(1)} ms wall (median) and ${node.cpuMs.toFixed(1)} ms of CPU in this run. The split below is in CPU`,
    `time, which the machine's load stretches least. An empty file started through \`#!/usr/bin/env node\`, as every hook is,`,
    `costs ${x(shebang.cpuRatio)} in CPU: the \`env\` exec and Node loading a script file are part of every hook's cost.`,
    "",
  );
  for (const t of misses) {
    const off = rows[`${t.hook} off`];
    const row = rows[`${t.hook} ${t.path}`];
    const variant = t.path === "fast" ? rows[`${t.hook} fast, lazy code left out`] : undefined;
    const parts = {
      launch: shebang.cpuRatio - 1,
      load: off.cpuRatio - shebang.cpuRatio,
      work: row.cpuRatio - off.cpuRatio,
      lazy: variant ? row.cpuRatio - variant.cpuRatio : null,
    };
    const text = [
      `- **\`${t.hook}\` ${t.path}: ${x(t.ratio)} wall, ${x(row.cpuRatio)} CPU, ${mib(t.rssMiB)}** — missed by ${points(t.ratio - TARGETS.startupRatio)}× wall` +
        `${t.rssMiB > TARGETS.startupRssMiB ? ` and ${mib(t.rssMiB - TARGETS.startupRssMiB)} of RSS` : ""}.` +
        ` In CPU: the shebang launch ${points(parts.launch)}×, loading the bundle (\`CARRYOVER=0\` row) ${points(parts.load)}×,` +
        ` the path's own work (stdin, config, ${t.path === "fast" ? "its checks" : "its reads, output and writes"}) ${points(parts.work)}×.`,
    ];
    if (variant) {
      text.push(
        ` The variant without the deferred code runs the same fast path at ${x(variant.cpuRatio)} CPU: carrying \`./run.ts\` and zod in the` +
          ` file costs the fast path ${points(parts.lazy)}× unexecuted (V8 still reads and pre-parses it).`,
      );
    }
    text.push(` ${closeStartup(t, row, parts)}`);
    lines.push(text.join(""));
  }
  return lines.join("\n");
}

function closeStartup(t, row, parts) {
  if (row.cpuRatio <= TARGETS.startupRatio) {
    return `Its CPU ratio is within the target: the wall figure carries this run's load; rerun on a quiet machine to confirm.`;
  }
  const largest = Math.max(parts.launch, parts.load, parts.work, parts.lazy ?? -Infinity);
  if (largest === parts.launch) {
    return "What would close it: the launch dominates; the installer could register the exec form with Node's absolute path (`\"command\": \"/usr/bin/node\", \"args\": [hook]`), skipping `/usr/bin/env`.";
  }
  if (largest === parts.lazy) {
    return "What would close it: keep the deferred code out of the file the fast path loads (e.g. the lazy part as a string compiled only on the active path, or a smaller validator than zod).";
  }
  if (largest === parts.load) return "What would close it: a smaller bundle on this path; core's runtime and its config key table are in every hook's file.";
  return `What would close it: less work on the path (its ${points(parts.work)}× is stdin, config files and its own file-system calls).`;
}

function promptAnalysis(rows, t) {
  return [
    "### The whole per-prompt cost",
    "",
    `All UserPromptSubmit hooks on their fast paths, started together: ${x(t.ratio)} one \`node -e 0\`, ${x(t.ratio / t.floorRatio)} the same number of`,
    `\`node -e 0\` started together (target ≤ ${TARGETS.startupRatio}×; missed by ${points(t.ratio / t.floorRatio - TARGETS.startupRatio)}×). Each hook's own`,
    "excess adds up here (see the start-up rows above). The floor itself is Node: on this 2-core machine the processes of one",
    "prompt compete for the cores. What would close the rest: the per-hook fixes above; what would lower the floor is fewer",
    "processes per prompt (one dispatcher executable registered once for UserPromptSubmit, running the installed hooks' fast",
    "paths in one Node process), at the price of hooks no longer being installable one by one.",
  ].join("\n");
}

function statusAnalysis(results, misses) {
  const rows = results.statusline.rows;
  const lines = ["### Status line", ""];
  for (const t of misses) {
    lines.push(
      `- **${t.what}: ${x(t.ratio)}, ${mib(t.rssMiB)}** — missed by ${points(t.ratio - TARGETS.startupRatio)}×${t.rssMiB > TARGETS.startupRssMiB ? ` and ${mib(t.rssMiB - TARGETS.startupRssMiB)}` : ""}.` +
        ` The status line bundle has no zod and reads no transcript; its cost over \`node -e 0\` is the shebang launch, loading core's runtime and config` +
        ` table, reading two config files and its reading file${t.what.includes("new") ? ", writing the reading atomically (temp file, rename) and listing the markers" : ""}.` +
        ` The start-up table's \`statusline off\` row separates loading from work.`,
    );
  }
  const gsd = rows["GSD statusline"];
  if (gsd) lines.push("", `For scale, GSD's status line (a plain 500-line script, no bundle) measured ${x(gsd.ratio.median)} in the same run.`);
  return lines.join("\n");
}

function scanAnalysis(misses, rows) {
  const lines = ["### Transcript scan", ""];
  for (const t of misses) {
    const at = (prefix) => rows.find((r) => r.sizeMB === t.sizeMB && r.row.name.startsWith(prefix))?.row;
    const speedup = at("readline").median / at("carryover").median;
    const quietEnough = t.cpuMBps >= TARGETS.scanMBps;
    lines.push(
      `- **${t.sizeMB.toFixed(0)} MB: ${t.wallMBps.toFixed(0)} MB/s wall (${Number.isFinite(t.netMBps) && t.netMBps > 0 ? t.netMBps.toFixed(0) : "—"} net of start-up, ${t.cpuMBps.toFixed(0)} per CPU-second), ${mib(t.rssMiB)}** — ` +
        (t.netMBps < TARGETS.scanMBps ? `missed by ${(TARGETS.scanMBps - Math.max(0, t.netMBps)).toFixed(0)} MB/s net of start-up` : "throughput met") +
        (t.rssMiB > TARGETS.scanRssMiB ? `; RSS over by ${mib(t.rssMiB - TARGETS.scanRssMiB)}` : "") +
        `. It is ${speedup.toFixed(1)}× faster than readline + JSON.parse and ${(at("jq").median / at("carryover").median).toFixed(1)}× faster than jq in the same rounds.` +
        (t.sizeMB < 50 ? ` At ${t.sizeMB.toFixed(0)} MB the scan is a small part of the process next to Node's start-up, so the net figure is the difference of two noisy medians.` : "") +
        (quietEnough
          ? " Per CPU-second it reaches the target: what is missing is this run's share of the cores."
          : " Neither net of start-up nor per CPU-second does it reach the target in this run; with the cores shared (see the load) both are inflated, so the run cannot tell the scanner's limit from the load: rerun `pnpm bench -- --only scan` on a quiet machine, and if it still misses, profile `bench/.cache/carryover-scan.cjs` with `node --cpu-prof` on the 500 MB file (the share of `JSON.parse` says whether the pre-filter lets too many lines through)."),
    );
  }
  return lines.join("\n");
}

function bundleAnalysis(misses) {
  const lines = ["### Bundle size", ""];
  for (const t of misses) {
    const p = t.parts;
    const top = p ? p.largest.slice(0, 4).map((entry) => `${entry.input} ${kb(entry.bytes)}`).join(", ") : "";
    lines.push(
      `- **\`${t.name}\`: ${kb(t.bytes)}** — over by ${kb(t.bytes - TARGETS.bundleBytes)}` +
        `${t.ceiling ? ` (ceiling in bundle-size.json: ${kb(t.ceiling)})` : ""}.` +
        (p ? ` zod/mini ${kb(p.zod)}, core ${kb(p.core)}, its own code ${kb(p.own)}; largest inputs: ${top}.` : "") +
        (p && p.zod > 0
          ? ` zod alone is ${((p.zod / TARGETS.bundleBytes) * 100).toFixed(0)}% of the budget: with it, core and the hook have ${kb(Math.max(0, TARGETS.bundleBytes - p.zod))} left.` +
            " What would close it: validating the few payload fields each hook reads with hand-written guards in core (as the status line does) instead of zod schemas" +
            ` would take ${kb(p.zod)} out of the file (measured earlier on this kind of machine: a hand-written guard starts at 1.01×, zod/mini at 1.07×).`
          : " What would close it: trimming what core pulls in (the config key table carries every hook's keys)."),
    );
  }
  return lines.join("\n");
}
