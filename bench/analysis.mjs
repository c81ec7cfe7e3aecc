import { statSync } from "node:fs";
import { kb, mib, table } from "./format.mjs";
import { TARGETS } from "./targets.mjs";

const x = (value) => `${value.toFixed(2)}×`;
const points = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(2)}`;

/** One part per kind of missed target, its reasons computed from the rows of the same run. */
export function missedTargets(results) {
  const parts = [];
  const startupMisses = (results.startup?.targets ?? []).filter((t) => !t.met);
  if (startupMisses.length > 0)
    parts.push(startupAnalysis(results.startup.rows, startupMisses, results.startup.profiles));
  const prompt = results.prompt?.targets?.[0];
  if (prompt && !prompt.met) parts.push(promptAnalysis(prompt));
  const flat = results.statusline?.flatTarget;
  if (flat && !flat.met) {
    parts.push(
      `### Status line flatness\n\nMeasured ${x(flat.ratio)} in CPU (target ≤ ${TARGETS.flatRatio}). ` +
        "carryover's status line does not open the transcript, so a difference here is the run's noise (see the " +
        "min–max of the two rows), not the file: rerun on a quiet machine with more rounds.",
    );
  }
  const scanMisses = (results.scan?.targets ?? []).filter((t) => !t.met);
  if (scanMisses.length > 0) parts.push(scanAnalysis(scanMisses, results.scan.rows, results.scan.profile));
  const bundleMisses = (results.bundles?.targets ?? []).filter((t) => !t.met);
  if (bundleMisses.length > 0) parts.push(bundleAnalysis(bundleMisses));
  return parts.join("\n\n");
}

/**
 * Splits each missed path's CPU over `node -e 0` into: the launch and boot beyond `node -e 0`'s, loading
 * the bundle, and the path's own work. The last two come from the in-process figures (fine-grained, no
 * boot in them); the first is the rest.
 */
function startupAnalysis(rows, misses, profiles) {
  const node = rows["node -e 0"];
  const split = misses.map((t) => {
    const row = rows[`${t.hook} ${t.path}`];
    const off = rows[`${t.hook} off`];
    return {
      t,
      row,
      launchMs: row.cpuMs - row.jsCpuMs - node.cpuMs,
      bundleMs: off.jsCpuMs,
      workMs: row.jsCpuMs - off.jsCpuMs,
    };
  });
  const part = (ms) => `${points(ms / node.cpuMs)} (${ms < 0 ? "−" : ""}${Math.abs(ms).toFixed(1)} ms)`;
  return [
    "### Hook start-up",
    "",
    `\`node -e 0\` took ${node.median.toFixed(1)} ms wall (median) and ${node.cpuMs.toFixed(1)} ms of CPU per run`,
    "here. Each missed path's CPU over `node -e 0`'s, in points of it and in ms: *bundle* is the hook's JS switched",
    "off (`CARRYOVER=0`: the file is read, its fast part compiled and evaluated, the deferred part only skipped as a",
    "comment; the runtime returns); *own work* is the path's JS over the switched-off hook's (stdin, config files, its",
    "checks; on active paths its reads, output and writes); *launch and boot* is the rest of the process's CPU over",
    "`node -e 0`'s (Node resolving and loading a script file instead of `-e`), the least precise part: a difference of",
    "two means taken on a busy machine.",
    "",
    table(
      ["path", "wall", "CPU", "missed by (wall)", "launch and boot", "bundle", "own work", "what would close it"],
      split.map((s) => [
        `\`${s.t.hook}\` ${s.t.path}`,
        x(s.t.ratio),
        x(s.t.cpuRatio),
        `${points(s.t.ratio - s.t.limit)}×${s.t.rssMiB > s.t.rssLimit ? `, ${mib(s.t.rssMiB - s.t.rssLimit)}` : ""}`,
        part(s.launchMs),
        part(s.bundleMs),
        part(s.workMs),
        closeStartup(s),
      ]),
    ),
    "",
    "The levers: the bundle part is what the file's size costs to read and compile on every run, used or",
    `not${compileRate(profiles)}; the bundle sizes below say what the files are made of. The launch is sh's and`,
    "Node's: hooks are registered as `/bin/sh <file> <event>`, whose prelude decides what it can and then execs",
    "Node (see the empty rows).",
    ...(misses.some((t) => t.statusLine)
      ? [
          "The status line reads its stdin and config even switched off (it still shows a chained status line), so",
          "its *bundle* part includes that work.",
        ]
      : []),
  ].join("\n");
}

/** ": … V8 compiling alone took 0.11 ms per KB of file": compile time over file size, hook rows pooled. */
function compileRate(profiles = []) {
  let ms = 0;
  let kilobytes = 0;
  for (const { c, parts } of profiles) {
    if (!c.proc.file) continue;
    ms += parts.compile;
    kilobytes += statSync(c.proc.file).size / 1000;
  }
  return kilobytes > 0
    ? `: in the CPU profiles above, V8 compiling alone took ${(ms / kilobytes).toFixed(2)} ms per KB of file`
    : "";
}

function closeStartup({ t, row, launchMs, bundleMs, workMs }) {
  if (t.limit < 1) return "decide it in the executable's sh prelude (the hook's shFastPath probe) instead of in Node";
  if (t.statusLine) {
    return (
      "less JavaScript per render: Claude Code's own shell already runs the prelude (no second sh), so what is " +
      "left over `node -e 0` as a status line is the bundle's compile and the render"
    );
  }
  if (row.cpuRatio <= t.limit) return "CPU within target: the wall figure is this run's load; rerun on a quiet machine";
  const largest = Math.max(launchMs, bundleMs, workMs);
  if (largest === bundleMs) return "a smaller file to read and compile (what it is made of: bundle size)";
  if (largest === workMs) {
    return t.path === "fast"
      ? "less work before deciding (fewer file-system calls, no config read when nothing is configured)"
      : "less work on the path (its reads, writes and output)";
  }
  return "the launch dominates: Node's own, the same for any script file";
}

function promptAnalysis(t) {
  return [
    "### The whole per-prompt cost",
    "",
    `All UserPromptSubmit hooks on their fast paths, started together: ${x(t.ratio)} one \`node -e 0\` (target ≤`,
    `${TARGETS.promptTotalRatio}×: missed by ${points(t.ratio - TARGETS.promptTotalRatio)}×). A hook whose fast path`,
    "still starts Node costs a whole `node -e 0` here: what closes it is each such hook deciding its fast path in its",
    "sh prelude (see the start-up targets above).",
  ].join("\n");
}

function scanAnalysis(misses, rows, profile) {
  const at = (sizeMB, prefix) => rows.find((r) => r.sizeMB === sizeMB && r.row.name.startsWith(prefix))?.row;
  const cpuMet = misses.some((t) => t.cpuMBps >= TARGETS.scanMBps);
  const rssOver = (t) => (t.rssMiB > TARGETS.scanRssMiB ? `, ${mib(t.rssMiB - TARGETS.scanRssMiB)}` : "");
  return [
    "### Transcript scan",
    "",
    table(
      ["size", "net of start-up", "missed by", "per CPU-second", "time ÷ readline's", "time ÷ jq's", "peak RSS"],
      misses.map((t) => [
        `${t.sizeMB.toFixed(0)} MB`,
        t.netMBps > 0 ? `${t.netMBps.toFixed(0)} MB/s` : "—",
        `${(TARGETS.scanMBps - Math.max(0, t.netMBps)).toFixed(0)} MB/s${rssOver(t)}`,
        `${t.cpuMBps.toFixed(0)} MB/s`,
        // Per-round ratios to readline, as in the scan table; jq's through the same baseline.
        at(t.sizeMB, "carryover").ratio.median.toFixed(2),
        (at(t.sizeMB, "carryover").ratio.median / at(t.sizeMB, "jq").ratio.median).toFixed(2),
        mib(t.rssMiB),
      ]),
    ),
    "",
    "Memory stays flat (1 MiB chunks, only candidate lines decoded) and the scanner's lead over readline + JSON.parse",
    "grows with the file, as a pre-filter's should. The small files are dominated by Node's start-up, so their net",
    "figure is the difference of two noisy medians.",
    cpuMet
      ? "Per CPU-second the scanner reaches the target on the larger files: what the wall figure lacks is this run's " +
        "share of the cores."
      : "In this run the cores were shared (see the load), which inflates CPU time too, so the run cannot tell the " +
        "scanner's limit from the load.",
    ...(profile ? ["", scanProfileReading(profile)] : []),
  ].join("\n");
}

/** What the scan's profile says would close the gap, from its largest share. */
function scanProfileReading({ sizeMB, parts }) {
  const total = Object.values(parts).reduce((sum, ms) => sum + ms, 0);
  const pct = (ms) => `${((ms / total) * 100).toFixed(0)}%`;
  const lines = [
    `The ${sizeMB.toFixed(0)} MB profile (scan section) splits the main thread: ${pct(parts.idle)} idle waiting for`,
    `the next 1 MiB chunk, ${pct(parts.indexOf)} in \`Buffer.indexOf\` (the pre-filter), ${pct(parts.scanner)} in the`,
    `scanner's own JavaScript (decoding candidate lines, JSON.parse, collecting), ${pct(parts.gc)} in GC.`,
    "What would close it:",
  ];
  const ranked = [
    [
      parts.idle,
      "the idle share: the next chunk is read on libuv's pool while this one is searched, and the search finishes " +
        "first; from the page cache a read is a memcpy plus a thread hand-off, so larger chunks (fewer hand-offs) or " +
        "`readSync` may remove most of the wait: measure both as variants of core's `_jsonl-candidates.ts`.",
    ],
    [
      parts.indexOf,
      "the pre-filter's share: each chunk is searched once per needle (through each needle's anchor); fewer passes " +
        "over a chunk would cut it.",
    ],
    [
      parts.scanner,
      "the scanner's own share: fewer candidate lines decoded and parsed (bookkeeping lines that repeat tool calls " +
        "are dropped by their leading type before decoding; anything that still slips through costs a JSON.parse).",
    ],
    [parts.gc, "the GC share: fewer short-lived strings (decode only the candidate lines, reuse the chunk buffers)."],
  ].sort((a, b) => b[0] - a[0]);
  lines.push(`first ${ranked[0][1]} Then ${ranked[1][1]}`);
  return lines.join("\n");
}

function bundleAnalysis(misses) {
  return [
    "### Bundle size",
    "",
    table(
      ["executable", "size", "over by", "ceiling set", "largest inputs"],
      misses.map((t) => [
        `\`${t.name}\``,
        kb(t.bytes),
        kb(t.bytes - TARGETS.bundleBytes),
        t.ceiling ? kb(t.ceiling) : "none",
        t.parts
          ? t.parts.largest
              .slice(0, 3)
              .map((entry) => `${entry.input} ${kb(entry.bytes)}`)
              .join(", ")
          : "?",
      ]),
    ),
    "",
    "Why: an executable holds its fast part, compiled on every start, and the rest of the hook in a comment, compiled",
    "only on a path with work (packages/build; pin, which Node starts only with work, is bundled whole). The core",
    "modules both parts use are in both, under 1 KB per hook (2 KB in prep-reminder): sharing them would put more in",
    "the fast part than it saves. What is left over the target is the hooks' own decision code and, in pre-compact,",
    "recovery and carryover-state, core's transcript scanner. What would close it: a smaller scanner, or one per",
    "reader. The bytes cost little at start-up (V8 skips a comment: see the start-up table), so the ceilings in",
    "`bundle-size.json` hold the sizes as they are, rounded up.",
  ].join("\n");
}
