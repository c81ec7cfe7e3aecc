import { join } from "node:path";
import { mib, ratioCell, table } from "../format.mjs";
import { measure } from "../measure.mjs";
import { profileScan } from "../profile.mjs";
import { createSandbox } from "../sandbox.mjs";
import { TARGETS } from "../targets.mjs";

const JQ_PROGRAM = 'reduce (inputs | select(.type == "assistant")) as $line (0; . + 1)';

/**
 * Whole-process scans of synthetic transcripts: core's `scanTranscript` bundled like a hook, against
 * readline + JSON.parse of every line (the baseline of the ratios) and jq. The files are fresh from
 * the generator, so they are in the page cache: this measures parsing, not the disk.
 */
export async function scanSection({ benchDir, scannerPath, transcripts, log }) {
  const env = createSandbox("scan").env;
  const readline = join(benchDir, "scan/readline-parse.mjs");
  const sections = [];
  const targets = [];
  let profile = null;
  for (const transcript of transcripts) {
    const { path, truth } = transcript;
    const runs = truth.bytes > 200e6 ? 3 : truth.bytes > 20e6 ? 5 : 10;
    let assistantLines = null;
    const cases = [
      {
        name: "readline + JSON.parse",
        proc: { command: "node", args: [readline, path], env },
        check: ([stdout]) => {
          assistantLines = JSON.parse(stdout).assistant;
          return JSON.parse(stdout).lines === truth.lines
            ? null
            : `read ${stdout.trim()}, the generator wrote ${truth.lines} lines`;
        },
      },
      { name: "node -e 0", proc: { command: "node", args: ["-e", "0"], env } },
      {
        name: "carryover scanTranscript",
        proc: { command: scannerPath, args: [path], env },
        check: ([stdout]) => {
          const found = JSON.parse(stdout);
          if (found.compactions !== truth.compactions)
            return `found ${found.compactions} compactions, the generator wrote ${truth.compactions}`;
          if (found.lastUserRequest !== truth.lastUserRequest)
            return (
              `last request ${JSON.stringify(found.lastUserRequest)}, expected ` +
              `${JSON.stringify(truth.lastUserRequest)}`
            );
          return null;
        },
      },
      {
        name: 'jq select(.type=="assistant")',
        proc: { command: "jq", args: ["-n", JQ_PROGRAM, path], env },
        check: ([stdout]) =>
          Number(stdout) === assistantLines
            ? null
            : `jq counted ${stdout.trim()} assistant lines, readline ${assistantLines}`,
      },
    ];
    const sizeMB = truth.bytes / 1e6;
    log(`scan ${sizeMB.toFixed(0)} MB: ${runs} rounds`);
    const rows = await measure(cases, {
      runs,
      warmup: 1,
      rssRuns: 1,
      onProgress: (text) => log(`scan ${sizeMB.toFixed(0)} MB ${text}`),
    });
    if (transcript === transcripts.at(-1)) {
      log(`scan ${sizeMB.toFixed(0)} MB: CPU profile of carryover's scan`);
      profile = { sizeMB, parts: profileScan(cases.find((c) => c.name === "carryover scanTranscript")) };
    }
    const node = rows.find((row) => row.name === "node -e 0");
    for (const row of rows) {
      if (row === node) continue;
      const wallMBps = sizeMB / (row.median / 1000);
      const cpuMBps = sizeMB / (row.cpuMs / 1000);
      // jq is no Node process: its start-up is not Node's.
      const netMBps = row.name.startsWith("jq") ? Number.NaN : sizeMB / ((row.median - node.median) / 1000);
      sections.push({ sizeMB, row, wallMBps, cpuMBps, netMBps });
      if (row.name === "carryover scanTranscript") {
        targets.push({
          sizeMB,
          wallMBps,
          cpuMBps,
          netMBps,
          rssMiB: row.rssMiB,
          met: netMBps >= TARGETS.scanMBps && row.rssMiB <= TARGETS.scanRssMiB,
        });
      }
    }
  }
  const markdown = [
    "Synthetic transcripts from `test-fixtures/transcripts/generate.ts` (every line modelled on a captured 2.1.332",
    'line; bookkeeping lines carrying `"tool_use"` and `"is_error":true` as real ones do), generated into a temp dir',
    "for the run. Each program is a whole process: carryover's is `scanTranscript` bundled like a hook",
    "(`bench/scan/carryover-scan.ts`); it returns all the facts the recovery hook uses and is checked against what the",
    "generator wrote. jq and readline count assistant lines (and agree). Time ratios are to readline + JSON.parse in",
    "the same round (lower is faster). MB/s (wall) is the file's size over the median wall time, Node's start-up",
    'included; "net" takes out the median of `node -e 0` in the same rounds: the scan\'s own throughput, which the',
    "target is about (whole, a 10 MB scan could not reach 500 MB/s: Node alone starts in ≈ 47 ms on a quiet machine of",
    "this kind). MB/s (CPU) is over the mean user + sys time of the process (all its threads), which a loaded machine",
    "stretches far less.",
    "",
    table(
      ["size", "program", "time × readline", "MB/s (wall)", "MB/s (wall, net of start-up)", "MB/s (CPU)", "peak RSS"],
      sections.map(({ sizeMB, row, wallMBps, netMBps, cpuMBps }) => [
        `${sizeMB.toFixed(0)} MB`,
        row.name,
        ratioCell(row.ratio),
        wallMBps.toFixed(0),
        Number.isFinite(netMBps) && netMBps > 0 ? netMBps.toFixed(0) : "—",
        cpuMBps.toFixed(0),
        mib(row.rssMiB),
      ]),
    ),
    ...(profile ? ["", profileText(profile)] : []),
  ].join("\n");
  return { markdown, rows: sections, targets, profile };
}

/** One V8 CPU profile of carryover's scan of the largest file: where its main thread's time goes. */
function profileText({ sizeMB, parts }) {
  const total = Object.values(parts).reduce((sum, ms) => sum + ms, 0);
  const share = (ms) => `${((ms / total) * 100).toFixed(0)}% (${ms.toFixed(0)} ms)`;
  return [
    `Where carryover's ${sizeMB.toFixed(0)} MB scan spends its main thread (one \`node --cpu-prof\` run,`,
    "a sample every 50 µs):",
    "",
    table(
      [
        "waiting for a chunk (idle)",
        "Buffer.indexOf (pre-filter)",
        "its JS (decode, JSON.parse, collect)",
        "GC",
        "rest of Node (buffer slicing and decoding, fs, boot)",
      ],
      [[share(parts.idle), share(parts.indexOf), share(parts.scanner), share(parts.gc), share(parts.node)]],
    ),
  ].join("\n");
}
