import { againstNodeTable, mib, msCell, table } from "../format.mjs";
import { caseContext, checkHookCase, hookProc } from "../hook-runs.mjs";
import { measure } from "../measure.mjs";
import { createSandbox } from "../sandbox.mjs";
import { TARGETS } from "../targets.mjs";

/**
 * carryover's status line against the peers, byte-identical stdin (the captured 2.1.332 status line
 * payload, 500k tokens) in one sandbox per transcript, and the same status line with a 1 MB and a 1 GB
 * transcript behind `transcript_path`. A peer that reads the whole transcript gets its 1 GB run in a
 * call of its own with few rounds: one such run takes seconds.
 */
export async function statusLineSection({ hooks, kit, payloadsDir, transcripts, peers, runs, log }) {
  const hook = hooks.find((candidate) => candidate.statusLine && candidate.built);
  const entry = kit.hookCases.find((candidate) => candidate.hook === hook?.hook);
  if (!hook || !entry) return { markdown: "The status line is not built (or has no case file): nothing to measure." };
  const fast = entry.cases.find((c) => c.name === "fast");
  const active = entry.cases.find((c) => c.name === "active");
  const [gsd, ccstatusline] = peers;
  const small = caseContext(kit, "statusline-1mb", payloadsDir, transcripts.small.path);
  const large = caseContext(kit, "statusline-1gb", payloadsDir, transcripts.large.path);
  const ours = (label, hookCase, context, extraEnv = {}) => ({
    name: label,
    proc: hookProc(hook, hookCase, context, extraEnv),
    setup: () => hookCase.setup?.(context),
    check: ([stdout]) => checkHookCase(kit, hookCase, context, stdout),
  });
  // A peer gets exactly the bytes carryover's cases get, its command run as Claude Code runs ours.
  const peer = (label, script, context) => ({
    name: label,
    proc: {
      command: "/bin/sh",
      args: ["-c", `node ${JSON.stringify(script.path)}`],
      input: JSON.stringify(fast.payload(context)),
      env: context.env,
      cwd: context.projectDir,
    },
    check: ([stdout]) => (stdout.trim() === "" ? "printed nothing" : null),
  });
  const chainCommand = `node ${JSON.stringify(gsd.path)}`;
  const chained = {
    ...ours("carryover chaining GSD", fast, small, { CARRYOVER_STATUSLINE_CHAIN_COMMAND: chainCommand }),
    // GSD draws its context bar with these blocks; ours has none.
    check: ([stdout]) =>
      stdout.includes(fast.expect) && stdout.includes("░")
        ? null
        : `expected carryover's line and GSD's, got ${JSON.stringify(stdout)}`,
  };
  const node = {
    name: "node -e 0",
    proc: { command: "node", args: ["-e", "0"], env: createSandbox("statusline-node").env },
  };
  const cases = [
    node,
    ours("carryover, unchanged reading", fast, small),
    ours("carryover, new reading", active, small),
    peer(gsd.name, gsd, small),
    peer(ccstatusline.name, ccstatusline, small),
    chained,
    ours("carryover, new reading, 1 GB transcript", active, large),
    peer(`${gsd.name}, 1 GB transcript`, gsd, large),
  ];
  log(`statusline: ${cases.length} cases × ${runs} rounds`);
  const rows = await measure(cases, {
    runs,
    paired: true,
    onProgress: (text) => log(`statusline ${text}`),
  });
  const row = Object.fromEntries(rows.map((r) => [r.name, r]));
  const slowCases = [
    node,
    peer(`${ccstatusline.name}, 1 MB transcript`, ccstatusline, small),
    peer(`${ccstatusline.name}, 1 GB transcript`, ccstatusline, large),
  ];
  log("statusline: ccstatusline with 1 GB, 3 rounds");
  const slowRows = await measure(slowCases, {
    runs: 3,
    warmup: 1,
    rssRuns: 1,
    onProgress: (text) => log(`ccstatusline 1 GB ${text}`),
  });

  // Each row's ratios are to `node -e 0` in the same rounds, so their quotient cancels the drift.
  const flat = (a, b) => ({ wall: b.ratio.median / a.ratio.median, cpu: b.cpuMs / a.cpuMs });
  const oursFlat = flat(row["carryover, new reading"], row["carryover, new reading, 1 GB transcript"]);
  const gsdFlat = flat(row[gsd.name], row[`${gsd.name}, 1 GB transcript`]);
  const ccFlat = flat(slowRows[1], slowRows[2]);
  const peerRows = cases.slice(0, 6).map((c) => row[c.name]);
  const markdown = [
    "### Against the peers (same stdin, same run)",
    "",
    `Peers pinned and installed by the bench into \`bench/.peers\`:`,
    `${peers.map((p) => `\`${p.pkg}@${p.version}\` (\`node ${p.script}\`)`).join(", ")}.`,
    "Each run gets the captured 2.1.332 status line stdin (500k tokens of a 1M window), rewritten to the sandbox's",
    "paths; the transcript behind `transcript_path` is a 1 MB synthetic one. Each status line's command runs as",
    "Claude Code runs one, through `/bin/sh -c` (a peer's as `node <script>`, carryover's as its installer writes",
    "it); `node -e 0` runs bare.",
    "",
    againstNodeTable("status line", peerRows),
    "",
    "carryover's own target (≤ 1.05× `node -e 0` as a status line, `/bin/sh -c 'node -e 0'`) is judged in the",
    'start-up table, whose rounds hold the floors that explain its cost. "carryover chaining GSD" is carryover\'s',
    "line with GSD's as its `chainCommand` (what `carryover install statusline` sets up for a GSD user): GSD runs",
    "through `/bin/sh -c` while carryover does its own work, and its line is shown after ours on the same row (the",
    "default `chainPosition`).",
    "",
    "### Flat in the transcript's size",
    "",
    "The 1 GB transcript is the 100 MB synthetic one written ten times over (the status line's input is its stdin; a",
    "program that reads the transcript sees a real tail either way).",
    "",
    table(
      [
        "status line",
        "1 MB transcript (ms)",
        "1 GB transcript (ms)",
        "1 GB ÷ 1 MB, wall",
        "1 GB ÷ 1 MB, CPU",
        "peak RSS at 1 GB",
      ],
      [
        [
          "carryover, new reading",
          msCell(row["carryover, new reading"]),
          msCell(row["carryover, new reading, 1 GB transcript"]),
          ...flatCells(oursFlat),
          mib(row["carryover, new reading, 1 GB transcript"].rssMiB),
        ],
        [
          gsd.name,
          msCell(row[gsd.name]),
          msCell(row[`${gsd.name}, 1 GB transcript`]),
          ...flatCells(gsdFlat),
          mib(row[`${gsd.name}, 1 GB transcript`].rssMiB),
        ],
        [
          `${ccstatusline.name} (3 rounds)`,
          msCell(slowRows[1]),
          msCell(slowRows[2]),
          ...flatCells(ccFlat),
          mib(slowRows[2].rssMiB),
        ],
      ],
    ),
    "",
    "carryover's status line never opens the transcript (it reads stdin, its reading file and the level markers), so",
    "the size cannot show; the row is the proof. The wall quotient is of the two rows' median ratios to `node -e 0`;",
    "the CPU one, of their mean CPU times, is what the target is judged on: it measures work, which is what a",
    "transcript read would add.",
  ].join("\n");
  const flatTarget = {
    what: "statusline 1 GB ÷ 1 MB transcript",
    ratio: oursFlat.cpu,
    wall: oursFlat.wall,
    met: oursFlat.cpu <= TARGETS.flatRatio,
  };
  return { markdown, rows: row, slowRows, flatTarget };
}

function flatCells({ wall, cpu }) {
  return [`${wall.toFixed(2)}×`, `${cpu.toFixed(2)}×`];
}
