import { missedTargets } from "./analysis.mjs";
import { kb, mib, table } from "./format.mjs";
import { TARGET_REPEATS, TARGETS } from "./targets.mjs";

/** BENCHMARKS.md: the machine and its load, how to rerun, the targets, every table, what was missed and why. */
export function report({ results, before, after, startedAt, options, complete }) {
  const nodes = Object.keys(results.byNode ?? {});
  const ok = (section) => Object.fromEntries(Object.entries(section).filter(([, result]) => !result.error));
  const minutes = (Date.now() - startedAt.getTime()) / 60_000;
  const load = (m) => m.loadavg.map((value) => value.toFixed(1)).join(" / ");
  const quiet = Math.max(before.loadavg[0], after.loadavg[0], before.loadavg[1]) < before.nproc * 0.5;
  const lines = [
    "# Benchmarks",
    "",
    `Written by \`pnpm bench\` (\`bench/run.mjs\`) on ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC ` +
      `in ${minutes.toFixed(0)} min${complete ? "" : ` (partial: ${options.only.join(", ")})`}` +
      `${options.quick ? ", --quick" : ""}. Do not edit by hand: rerun it.`,
    "",
    `**Machine:** ${before.nproc} cores (${before.cpu}), ${before.memGiB.toFixed(0)} GiB, Node ${before.node}, ` +
      `${before.jq}.`,
    `**Load average** (1 / 5 / 15 min) at the start ${load(before)}, at the end ${load(after)}.`,
    quiet
      ? "The machine was quiet."
      : `**The machine was not quiet** (see the load: other processes shared its ${before.nproc} cores), so ` +
        "absolute times are inflated and vary from round to round; the ratios, each taken against a `node -e 0` run " +
        "beside it, are the figures to read, and their min–max shows the noise.",
    "",
    "## How to rerun",
    "",
    "```bash",
    "pnpm bench                                # builds, runs everything, writes BENCHMARKS.md",
    "pnpm bench -- --only startup,prompt       # a subset → bench/results/latest.md",
    "                                          # (sections: startup, prompt, statusline, scan, bundles, recall)",
    "pnpm bench -- --quick                     # 12 rounds, scans of 10 and 100 MB only → bench/results/latest.md",
    "pnpm bench -- --runs 80                   # more rounds per case",
    "```",
    "",
    "Needs GNU `/usr/bin/time` (peak RSS) and `jq` (both installed from Debian with apt-get when missing) and, on the",
    "first run, npm to install the pinned status line peers into `bench/.peers` (gitignored). Transcripts are",
    "generated into a temp dir and removed. A section that fails (say, a hook changed under its case file in",
    "`bench/cases/`) is reported in its place and the command exits 1; the other sections still run.",
    "",
    "**How the figures are made.** Every case of a table runs in interleaved rounds (a, b, c, a, b, c, …) after",
    "warm-up rounds (3; 1 for the scans); each run's wall time is divided by a `node -e 0` run of its own right beside",
    "it (before it in even rounds, after it in odd ones: on a shared machine a baseline timed a round earlier drifts",
    "by several percent; for the scans, by readline's run in the same round), and a cell shows the median of those",
    `ratios with their min–max. A start-up path a target judges runs ${TARGET_REPEATS} times a round: its median`,
    `then rests on ${TARGET_REPEATS}× the samples (on this machine the median of`,
    "40 moved by up to 4% between runs, close to a 1.05× target's whole margin). Milliseconds are wall-time medians",
    "(min–max), for scale only. CPU is the mean user + sys time per run of the case's processes (all threads, read",
    "from the kernel's accounting of waited-for children), over that of the baseline runs beside them. Peak RSS is the",
    "largest of separate runs under GNU time (3; 1 for the scans), so its fork is not in the timings. Every measured",
    "path is first run once and checked: its stdout, the file it must leave (a marker, a reading), and an empty",
    "carryover log (a hook fails open, so an internal error would otherwise be timed as a fast path). Hooks run as",
    "Claude Code runs them once installed: `/bin/sh <file> <event>` (the status line: its command through",
    "`/bin/sh -c`, which sources the file), the payload on stdin, the project as cwd, a throwaway HOME, and only the",
    "environment Claude Code sets (`CLAUDE_PROJECT_DIR`, `CLAUDE_CODE_SESSION_ID`). The start-up,",
    `per-prompt and status line sections run once on each supported Node (${nodes.join(", ")}), from the cache`,
    "`node scripts/nodes.mjs fetch` fills; the scans and bundles once, on the machine's Node.",
    "",
    "## Targets",
    "",
    targetTable(
      nodes.map((node) => [`Node ${node}: `, ok(results.byNode[node])]),
      ok(results),
    ),
    "",
  ];
  const section = (level, title, result) => [
    `${level} ${title}`,
    "",
    result.error ? `**This section failed:** ${result.error}` : result.markdown,
    "",
  ];
  const perNode = { startup: "Hook start-up", prompt: "The whole per-prompt cost", statusline: "Status line" };
  for (const node of nodes) {
    lines.push(`## Node ${node}`, "");
    for (const [name, title] of Object.entries(perNode))
      if (results.byNode[node][name])
        lines.push(...section("###", `${title} (Node ${node})`, results.byNode[node][name]));
  }
  const once = { scan: "Transcript scan", bundles: "Bundle size", recall: "What a compaction keeps (recall)" };
  for (const [name, title] of Object.entries(once))
    if (results[name]) lines.push(...section("##", title, results[name]));
  const missed = [
    ...nodes
      .map((node) => [node, missedTargets(ok(results.byNode[node]))])
      .filter(([, text]) => text)
      .map(([node, text]) => `**Node ${node}**\n\n${text}`),
    missedTargets(ok(results)),
  ].filter(Boolean);
  lines.push("## Targets missed: by how much, why, what would close it", "", missed.join("\n\n") || "None.", "");
  return lines.join("\n");
}

/** One table: each Node's start-up, per-prompt and status line targets, then the scans' and bundles'. */
function targetTable(perNode, results) {
  const rows = [];
  const verdict = (met) => (met ? "met" : "**missed**");
  for (const [prefix, byNode] of perNode) {
    for (const t of byNode.startup?.targets ?? []) {
      const against = t.statusLine ? "`/bin/sh -c 'node -e 0'` (both status line commands)" : "`node -e 0`";
      const bare = t.statusLine ? `; ${t.row.ratio.median.toFixed(2)}× bare \`node -e 0\`` : "";
      rows.push([
        `${prefix}\`${t.hook}\` ${t.path}: ≤ ${t.limit}× ${against}, ≤ ${mib(t.rssLimit)}`,
        `${t.ratio.toFixed(2)}× wall (${t.cpuRatio.toFixed(2)}× CPU), ${mib(t.rssMiB)}${bare}`,
        verdict(t.met),
      ]);
    }
    for (const t of byNode.prompt?.targets ?? []) {
      rows.push([
        `${prefix}per-prompt total, every hook's fast path, parallel: ≤ ${TARGETS.promptTotalRatio}× one \`node -e 0\``,
        `${t.ratio.toFixed(2)}×`,
        verdict(t.met),
      ]);
    }
    if (byNode.statusline?.flatTarget) {
      const t = byNode.statusline.flatTarget;
      rows.push([
        `${prefix}status line flat: 1 GB ÷ 1 MB transcript ≤ ${TARGETS.flatRatio}× (CPU)`,
        `${t.ratio.toFixed(2)}× CPU (${t.wall.toFixed(2)}× wall)`,
        verdict(t.met),
      ]);
    }
  }
  for (const t of results.scan?.targets ?? []) {
    rows.push([
      `scan ${t.sizeMB.toFixed(0)} MB: ≥ ${TARGETS.scanMBps} MB/s (net of Node's start-up) at ≤ ` +
        `${TARGETS.scanRssMiB} MiB`,
      `${t.netMBps > 0 ? t.netMBps.toFixed(0) : "—"} MB/s net (${t.wallMBps.toFixed(0)} whole process, ` +
        `${t.cpuMBps.toFixed(0)} per CPU-second), ${mib(t.rssMiB)}`,
      verdict(t.met),
    ]);
  }
  for (const t of results.bundles?.targets ?? []) {
    rows.push([`\`${t.name}\` ≤ ${kb(TARGETS.bundleBytes)}`, kb(t.bytes), verdict(t.met)]);
  }
  for (const t of results.recall?.targets ?? []) rows.push([t.what, t.measured, verdict(t.met)]);
  return rows.length > 0 ? table(["target", "measured", "verdict"], rows) : "No section with a target ran.";
}
