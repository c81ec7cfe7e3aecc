import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { againstNodeTable, cpuCell, kb, mib, msCell, ratioCell, table } from "../format.mjs";
import { caseContext, checkHookCase, hookProc } from "../hook-runs.mjs";
import { runsOn } from "../hooks.mjs";
import { jsCpuMs } from "../js-cpu.mjs";
import { measure, probe } from "../measure.mjs";
import { profileCase } from "../profile.mjs";
import { createSandbox } from "../sandbox.mjs";
import { TARGET_REPEATS, TARGETS } from "../targets.mjs";

// A working session's transcript after an hour or two; cases that need a longer one say so.
const HOOK_TRANSCRIPT_BYTES = 5e6;
// The status line's target is judged against this row: both are status line commands, run as Claude Code runs one.
const STATUS_LINE_FLOOR = "node -e 0 as a status line";

/**
 * Start-up of every hook on each of its paths, run as registered (`/bin/sh <file> <event>`), against
 * `node -e 0` in the same interleaved run, with floors beside it: `/bin/sh` alone (what a path decided in
 * sh cannot go below), an empty file as `node <file>` (what any path that starts Node pays), and the
 * hook switched off (`CARRYOVER=0`, decided by the prelude).
 */
export async function startupSection({ benchDir, hooks, kit, payloadsDir, transcripts, cacheDir, runs, log }) {
  const transcript = transcripts.generate(HOOK_TRANSCRIPT_BYTES, 1).path;
  const notes = [];
  const baseEnv = createSandbox("node").env;
  // .cjs as the hooks: an extensionless file under this repo's "type": "module" would load as ESM.
  const emptyBin = join(cacheDir, "empty.cjs");
  writeFileSync(emptyBin, "\n");
  const cases = [
    {
      name: "node -e 0",
      row: { hook: "—", path: "`node -e 0`", what: "the floor every Node hook pays" },
      proc: { command: "node", args: ["-e", "0"], env: baseEnv },
    },
    {
      name: "sh alone",
      row: { hook: "—", path: "`/bin/sh -c exit`", what: "the floor of a path decided in sh" },
      proc: { command: "/bin/sh", args: ["-c", "exit"], env: baseEnv },
    },
    {
      name: "empty file",
      row: {
        hook: "—",
        path: "empty",
        what: "an empty file run as `node <file>`: what a path that starts Node pays at least",
      },
      proc: { command: "node", args: [emptyBin], file: emptyBin, env: baseEnv },
    },
  ];
  if (hooks.some((hook) => hook.statusLine)) {
    cases.push({
      name: STATUS_LINE_FLOOR,
      row: {
        hook: "—",
        path: "`/bin/sh -c 'node -e 0'`",
        what: "`node -e 0` as a status line: Claude Code runs every `statusLine` command through `/bin/sh -c`",
      },
      proc: { command: "/bin/sh", args: ["-c", "node -e 0"], env: baseEnv },
    });
  }
  const byHook = new Map(kit.hookCases.map((entry) => [entry.hook, entry]));
  for (const entry of kit.hookCases) {
    if (!hooks.some((hook) => hook.hook === entry.hook))
      notes.push(`\`${entry.hook}\`: bench/cases/${entry.hook}.ts has no hook package (yet); skipped.`);
  }
  for (const hook of hooks) {
    if (!hook.built) {
      notes.push(`\`${hook.hook}\`: not built (${hook.binPath} missing); skipped.`);
      continue;
    }
    const entry = byHook.get(hook.hook);
    if (!entry) {
      notes.push(`\`${hook.hook}\`: no case file (bench/cases/${hook.hook}.ts); skipped.`);
      continue;
    }
    const off = entry.cases[0];
    const offContext = caseContext(kit, `${hook.hook}-off`, payloadsDir, transcript);
    cases.push({
      name: `${hook.hook} off`,
      row: {
        hook: hook.hook,
        path: "off",
        // A switched-off status line still shows the user's chained one: it reads stdin and config first.
        what: hook.statusLine
          ? "`CARRYOVER=0`: the bundle loads, stdin and config are read, nothing is chained"
          : "`CARRYOVER=0`: the bundle loads, the runtime returns",
      },
      proc: hookProc(hook, off, offContext, { CARRYOVER: "0" }),
    });
    for (const hookCase of entry.cases) {
      const caseTranscript = hookCase.transcriptBytes
        ? transcripts.generate(hookCase.transcriptBytes, 3).path
        : transcript;
      const context = caseContext(
        kit,
        `${hook.hook}-${hookCase.name.replace(/\W+/g, "-")}`,
        payloadsDir,
        caseTranscript,
      );
      const c = {
        name: `${hook.hook} ${hookCase.name}`,
        row: { hook: hook.hook, path: hookCase.name, what: hookCase.what, everyPrompt: hookCase.everyPrompt === true },
        proc: hookProc(hook, hookCase, context),
        setup: () => hookCase.setup?.(context),
        check: ([stdout]) => checkHookCase(kit, hookCase, context, stdout),
        repeats: hookCase.everyPrompt ? TARGET_REPEATS : 1,
        ...(hookCase.everyPrompt ? { rssFloor: rssFloorProc(cacheDir, hook.binPath, context) } : {}),
      };
      const problem = await probe(c);
      if (problem) {
        notes.push(`\`${c.name}\`: not measured: ${problem}.`);
        continue;
      }
      cases.push(c);
    }
  }
  log(`start-up: ${cases.length} cases × ${runs} rounds`);
  const rows = await measure(cases, {
    runs,
    paired: true,
    onProgress: (text) => log(`start-up ${text}`),
  });
  // The status line's target, from rounds of its own: each render paired with a run of the floor it is judged
  // against, whose pairs vary less than the quotient of two rows paired with `node -e 0`.
  const floorCase = cases.find((c) => c.name === STATUS_LINE_FLOOR);
  const lineCases = cases.filter((c) => c.row.everyPrompt && isStatusLine(hooks, c.row.hook));
  const besideFloor =
    floorCase && lineCases.length > 0
      ? await measure([floorCase, ...lineCases], {
          runs,
          rssRuns: 0,
          paired: true,
          onProgress: (text) => log(`start-up, status line beside its floor: ${text}`),
        })
      : [];
  log("start-up: in-process CPU of each hook's JavaScript");
  const jsRuns = Math.max(5, Math.round(runs / 4));
  rows.forEach((row, i) => {
    row.jsCpuMs = cases[i].row.hook === "—" ? null : jsCpuMs(benchDir, cases[i], jsRuns);
  });
  log("start-up: CPU profiles of the every-prompt paths");
  const profileRuns = Math.max(5, Math.round(runs / 4));
  const profiled = cases.filter((c) => c.name === "node -e 0" || c.row.everyPrompt);
  const profiles = profiled.map((c) => ({ c, parts: profileCase(c, profileRuns) }));
  const targets = [];
  const tableRows = rows.map((row, i) => {
    const { hook, path, what, everyPrompt } = cases[i].row;
    const statusLine = isStatusLine(hooks, hook);
    let verdict = "";
    if (everyPrompt) {
      const limit = targetRatio(
        hooks.find((candidate) => candidate.hook === hook),
        path,
      );
      const rssLimit = (row.rssFloorMiB ?? rows[0].rssMiB) + TARGETS.startupRssOverMiB;
      const judged = statusLine ? besideFloor[lineCases.indexOf(cases[i]) + 1] : row;
      const ratio = judged.ratio.median;
      const cpuRatio = judged.cpuRatio;
      const met = ratio <= limit && row.rssMiB <= rssLimit;
      const against = statusLine ? " `/bin/sh -c 'node -e 0'`" : "";
      const overRss =
        row.rssMiB > rssLimit ? `; peak RSS ${row.rssMiB.toFixed(2)} MiB over ${rssLimit.toFixed(2)}` : "";
      verdict = `${met ? "met" : "**missed**"} (≤ ${limit}×${against}: ${ratio.toFixed(2)}×${overRss})`;
      targets.push({ hook, path, statusLine, ratio, cpuRatio, limit, rssMiB: row.rssMiB, rssLimit, met, row });
    }
    const js = row.jsCpuMs === null ? "—" : `${row.jsCpuMs.toFixed(1)} ms`;
    return [hook, path, what, ratioCell(row.ratio), cpuCell(row), js, msCell(row), mib(row.rssMiB), verdict];
  });
  const markdown = [
    table(
      [
        "hook",
        "path",
        "what happens",
        "wall × `node -e 0`",
        "CPU × `node -e 0`",
        "its JS's CPU",
        "wall ms",
        "peak RSS",
        `target (and ≤ ${TARGETS.startupRssOverMiB} MiB over an empty file's peak RSS)`,
      ],
      tableRows,
    ),
    "",
    `The targets apply to the paths that run on (nearly) every prompt, response or edit: a UserPromptSubmit hook's`,
    `fast path (≤ ${TARGETS.promptFastRatio}×: decided by the executable's sh prelude before Node starts), and, at`,
    `≤ ${TARGETS.startupRatio}×, a pin re-injected every turn, every status line render and memory-guard after a`,
    "Write or Edit on a host that ignores its registration's `if` (whose decision needs the payload, which sh does",
    "not read). The status line's rows run its command as `carryover install` writes it, through `/bin/sh -c` as",
    "Claude Code runs every status line, and its target is judged against `node -e 0` run the same way, in rounds",
    "of their own where each render is paired with a run of that floor (the verdict's figure; the columns stay over",
    "bare `node -e 0`, like every row's): that shell is Claude Code's, paid by any status line. The other paths run",
    'once per level, per compaction or per session. "CPU" is the mean user',
    "+ sys time of the process (all its threads) over `node -e 0`'s in the same run: the machine's load stretches it",
    'far less than wall time. "Its JS\'s CPU" is',
    `measured inside the process (\`process.cpuUsage\` from a \`node -r\` preload to exit, median of ${jsRuns} runs)`,
    "with the file run as `node <file>`: loading it and running the path in JavaScript, without Node's own boot; on a",
    "path the prelude decides, Node does not start at all.",
    "",
    `A target's peak RSS may be at most ${TARGETS.startupRssOverMiB} MiB over Node's own in the same run: an empty`,
    "file run as `node <file>` beside each run of the path, from a path as long as the hook's, with its HOME and",
    "cwd. Node's start resolves the script's path and HOME character by character; on Node 24 and 26 long enough",
    "ones make that code hot, V8 compiles it with Maglev on a thread of its own, and the peak RSS rises by megabytes",
    "whatever the script does (compare the empty file's row with `node -e 0`'s). Installed executables' paths are",
    "that long.",
    ...(notes.length > 0 ? ["", ...notes.map((note) => `- ${note}`)] : []),
    "",
    "### Where the every-prompt paths' CPU goes",
    "",
    `V8 CPU profiles (\`node --cpu-prof\`, a sample every 50 µs, ${profileRuns} runs each, mean ms per run):`,
    "Node's own boot, module loader and bindings; compiling the hook's file (`wrapSafe`: Node hands the whole source",
    "to V8, used or not); the hook's own code (every frame from its file: the bundle's top level, the runtime, config,",
    "the path); garbage collection. The profiler slows everything alike: read the shares, and compare a hook's row",
    "with `node -e 0`'s.",
    "",
    table(
      ["path", "file", "total", "Node", "compiling the file", "its code", "GC"],
      profiles.map(({ c, parts }) => {
        const total = parts.node + parts.compile + parts.hook + parts.gc;
        const cell = (ms) => `${ms.toFixed(1)} (${((ms / total) * 100).toFixed(0)}%)`;
        const file = c.proc.file ? kb(statSync(c.proc.file).size) : "—";
        return [
          c.name,
          file,
          total.toFixed(1),
          cell(parts.node),
          cell(parts.compile),
          cell(parts.hook),
          cell(parts.gc),
        ];
      }),
    ),
  ].join("\n");
  return { markdown, rows: Object.fromEntries(rows.map((row, i) => [cases[i].name, row])), targets, notes, profiles };
}

/** A UserPromptSubmit hook's fast path is decided in sh; every other every-prompt path starts Node. */
function targetRatio(hook, path) {
  return hook && runsOn(hook, "UserPromptSubmit") && path === "fast" ? TARGETS.promptFastRatio : TARGETS.startupRatio;
}

/**
 * The whole cost of one prompt: every UserPromptSubmit hook, all on their fast paths or all on their
 * active paths, started together as Claude Code starts them, and one after the other (the sum).
 */
export async function perPromptSection({ hooks, kit, payloadsDir, transcripts, runs, log }) {
  const transcript = transcripts.generate(HOOK_TRANSCRIPT_BYTES, 1).path;
  const byHook = new Map(kit.hookCases.map((entry) => [entry.hook, entry]));
  const installed = hooks.filter((hook) => hook.built && runsOn(hook, "UserPromptSubmit") && byHook.has(hook.hook));
  const skipped = hooks
    .filter((hook) => runsOn(hook, "UserPromptSubmit") && !installed.includes(hook))
    .map((hook) => hook.hook);
  if (installed.length === 0)
    return { markdown: "No UserPromptSubmit hook is built: nothing to measure.", targets: [] };
  const baseEnv = createSandbox("node-group").env;
  const node = { command: "node", args: ["-e", "0"], env: baseEnv };
  const shell = { command: "/bin/sh", args: ["-c", "exit"], env: baseEnv };
  const cases = [
    { name: "node -e 0", proc: node },
    { name: `${installed.length} × node -e 0, parallel`, procs: installed.map(() => node), parallel: true },
    // What the hooks' fast paths cannot go under: one process start each.
    { name: `${installed.length} × /bin/sh -c exit, parallel`, procs: installed.map(() => shell), parallel: true },
  ];
  for (const path of ["fast", "active"]) {
    const context = caseContext(kit, `prompt-${path}`, payloadsDir, transcript);
    const members = installed.map((hook) => ({
      hook,
      hookCase: byHook.get(hook.hook).cases.find((c) => c.name === path),
    }));
    const missing = members.filter((member) => !member.hookCase).map((member) => member.hook.hook);
    if (missing.length > 0) throw new Error(`per-prompt ${path}: no "${path}" case for ${missing.join(", ")}`);
    const setup = () => {
      for (const member of members) member.hookCase.setup?.(context);
    };
    const check = (outputs) =>
      members
        .map((member, i) => checkHookCase(kit, member.hookCase, context, outputs[i]))
        .find((problem) => problem !== null) ?? null;
    const procs = members.map((member) => hookProc(member.hook, member.hookCase, context));
    cases.push({ name: `${path}, parallel`, procs, parallel: true, setup, check });
    cases.push({ name: `${path}, one after another`, procs, parallel: false, setup, check });
  }
  log(`per-prompt: ${cases.length} cases × ${runs} rounds`);
  const rows = await measure(cases, {
    runs,
    paired: true,
    onProgress: (text) => log(`per-prompt ${text}`),
  });
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  const fastParallel = byName["fast, parallel"];
  const floor = byName[`${installed.length} × node -e 0, parallel`];
  const shellFloor = byName[`${installed.length} × /bin/sh -c exit, parallel`];
  const targets = [
    {
      what: "per-prompt total, fast paths, parallel",
      ratio: fastParallel.ratio.median,
      rssMiB: fastParallel.rssMiB,
      met: fastParallel.ratio.median <= TARGETS.promptTotalRatio,
      floorRatio: floor.ratio.median,
    },
  ];
  const markdown = [
    `UserPromptSubmit hooks installed together: ${installed.map((hook) => `\`${hook.hook}\``).join(", ")}` +
      (skipped.length > 0 ? ` (not built or no case file: ${skipped.join(", ")})` : "") +
      ". Claude Code 2.1.332 starts the hooks of one event together and waits for all of them,",
    'so the prompt waits for the parallel wall time; "one after another" is the sum of their costs (what a machine',
    "with one free core pays). Peak RSS is the sum of the processes' peaks: they are alive at the same time.",
    "",
    againstNodeTable("case", rows, "peak RSS (sum)"),
    "",
    `${installed.length} Node processes started together cost ${floor.ratio.median.toFixed(2)}× one \`node -e 0\` on`,
    `this machine; the fast paths, decided in sh where a hook's prelude can, cost`,
    `${fastParallel.ratio.median.toFixed(2)}× one \`node -e 0\` (target ≤ ${TARGETS.promptTotalRatio}×), where`,
    `${installed.length} shells that exit at once cost ${shellFloor.ratio.median.toFixed(2)}×.`,
  ].join("\n");
  return { markdown, rows: byName, targets, installed: installed.map((hook) => hook.hook) };
}

function isStatusLine(hooks, hook) {
  return hooks.find((candidate) => candidate.hook === hook)?.statusLine === true;
}

/**
 * Node running an empty file whose path is as long as `binPath`, in the case's environment and cwd: what Node's
 * own start costs that run in memory (see the RSS note above).
 */
function rssFloorProc(cacheDir, binPath, context) {
  const dir = join(cacheDir, "rss-floor");
  const padding = Math.max(1, binPath.length - `${dir}/.cjs`.length);
  const file = join(dir, `${"f".repeat(padding)}.cjs`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, "\n");
  return { command: "node", args: [file], env: context.env, cwd: context.projectDir };
}
