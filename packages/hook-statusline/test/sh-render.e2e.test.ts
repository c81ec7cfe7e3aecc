import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payloadText } from "@carryover/test-fixtures/payloads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The status line's render in sh and awk (src/render-in-sh.ts) against its Node render, on the same states: the
// built executable run as Claude Code runs it (its command sourced by /bin/sh -c) with a `node` that only says it
// started, and the same file run by Node as `node <file>`, which skips the prelude.
const BIN = join(import.meta.dirname, "../dist/carryover-statusline.cjs");
const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
const AWKS = [
  { name: "mawk", path: "/usr/bin/mawk" },
  { name: "gawk", path: "/usr/bin/gawk" },
  { name: "original-awk", path: "/usr/bin/original-awk" },
  { name: "busybox", path: "/usr/bin/busybox" },
];
const STARTED = "NODE-STARTED:";
let dirs: string;

beforeAll(() => {
  dirs = mkdtempSync(join(tmpdir(), "carryover-sh-render-"));
  for (const awk of AWKS) {
    mkdirSync(join(dirs, awk.name));
    if (existsSync(awk.path)) symlinkSync(awk.path, join(dirs, awk.name, "awk"));
  }
  // A node that says it started and what it got on stdin: the bytes the render read must reach Node whole.
  mkdirSync(join(dirs, "fake-node"));
  writeFileSync(join(dirs, "fake-node/node"), `#!/bin/sh\nprintf '${STARTED}'; cat\n`, { mode: 0o755 });
});
afterAll(() => rmSync(dirs, { recursive: true, force: true }));

interface Stdin {
  tokens?: number | null;
  window?: number;
  model?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  /** The JSON text as Claude Code would not write it. */
  edit?: (text: string) => string;
}

/** The captured status line stdin with `tokens` in the context (null: before the first response). */
function stdin({ tokens = 500_000, window = 1_000_000, model, extra = {}, edit = (text) => text }: Stdin = {}): string {
  const payload = JSON.parse(payloadText("statusline.json"));
  payload.context_window.context_window_size = window;
  payload.context_window.current_usage =
    tokens === null ? null : { ...payload.context_window.current_usage, input_tokens: tokens };
  if (model) payload.model = model;
  return edit(JSON.stringify({ ...payload, ...extra }, null, 2));
}

interface State {
  /** The reading the previous render left: tokens, and how long ago; synced for the default levels unless not. */
  previous?: { tokens: number; agoMs: number; synced?: number[] | null; window?: number; auto?: number };
  /** compaction.json: PostCompact's process started this long before now (negative: after this render started). */
  compactionAgoMs?: number;
  markers?: string[];
  files?: Record<string, string>;
  env?: Record<string, string>;
}

function sandbox(state: State) {
  const root = mkdtempSync(join(tmpdir(), "carryover-sh-render-box-"));
  const home = join(root, "home");
  const session = join(home, ".claude/carryover/sessions", SESSION);
  mkdirSync(join(session, "markers"), { recursive: true, mode: 0o700 });
  mkdirSync(join(root, "proj"));
  const now = Date.now();
  // Clock ticks since boot, as processStartMs counts them: this process's uptime is what /proc/uptime says.
  const bootMs = now - Number(readFileSync("/proc/uptime", "latin1").split(" ")[0]) * 1000;
  if (state.previous) {
    const { tokens, agoMs, synced = [60, 85], window = 1_000_000, auto = 967_000 } = state.previous;
    const reading = {
      source: "statusline",
      contextTokens: tokens,
      modelWindowTokens: window,
      autoCompactTokens: auto,
      model: "claude-opus-5-5",
      atMs: now - agoMs,
      freshUntilMs: now - agoMs + 300_000,
      takenByProcessStartedMs: Math.round(now - bootMs - agoMs - 50),
      ...(synced ? { syncedLevels: synced } : {}),
    };
    const path = join(session, "usage.json");
    writeFileSync(path, JSON.stringify(reading).padEnd(4096, " "), { mode: 0o600 });
    utimesSync(path, reading.atMs / 1000, reading.freshUntilMs / 1000);
  }
  if (state.compactionAgoMs !== undefined) {
    const startedMs = Math.round(now - bootMs - state.compactionAgoMs);
    writeFileSync(join(session, "compaction.json"), JSON.stringify({ seq: 1, startedMs, atMs: now }));
  }
  for (const name of state.markers ?? []) writeFileSync(join(session, "markers", `${name}.json`), "{}");
  for (const [path, text] of Object.entries(state.files ?? {})) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const env = {
    HOME: home,
    CLAUDE_PROJECT_DIR: join(root, "proj"),
    CLAUDE_CODE_SESSION_ID: SESSION,
    TERM: "xterm-256color",
    ...state.env,
  };
  return { root, session, env };
}

/** What a render leaves: the reading (its times apart), its mtime's distance from freshUntilMs, markers, the log. */
function effects(box: ReturnType<typeof sandbox>) {
  const path = join(box.session, "usage.json");
  const text = existsSync(path) ? readFileSync(path, "utf8") : null;
  const reading = text === null ? null : JSON.parse(text);
  const times = reading && {
    atMs: reading.atMs,
    fresh: reading.freshUntilMs,
    mtimeMs: statSync(path).mtimeMs,
    taken: reading.takenByProcessStartedMs,
  };
  if (reading) for (const key of ["atMs", "freshUntilMs", "takenByProcessStartedMs"]) delete reading[key];
  const log = join(box.env.HOME, ".claude/carryover/log/carryover.log");
  return {
    reading,
    size: text?.length ?? null,
    times,
    markers: readdirSync(join(box.session, "markers")).sort(),
    log: existsSync(log) ? readFileSync(log, "utf8") : "",
  };
}

/** The render sh decides (null: it started Node, with the stdin it read) and Node's, each in a sandbox of `state`. */
function renders(state: State, input: string, awk: string) {
  const shBox = sandbox(state);
  const nodeBox = sandbox(state);
  try {
    const command = `carryover_statusline=${BIN}; . "$carryover_statusline"`;
    const path = [join(dirs, awk), join(dirs, "fake-node"), "/usr/bin", "/bin"].join(":");
    const sh = spawnSync("/bin/sh", ["-c", command], { env: { ...shBox.env, PATH: path }, input, encoding: "utf8" });
    expect(sh).toMatchObject({ status: 0, stderr: "" });
    const node = spawnSync(process.execPath, [BIN], { env: nodeBox.env, input, encoding: "utf8" });
    expect(node).toMatchObject({ status: 0, stderr: "" });
    const startedNode = sh.stdout.startsWith(STARTED);
    if (startedNode) expect(sh.stdout.slice(STARTED.length)).toBe(input);
    return {
      sh: startedNode ? null : sh.stdout,
      node: node.stdout,
      shEffects: effects(shBox),
      nodeEffects: effects(nodeBox),
    };
  } finally {
    rmSync(shBox.root, { recursive: true, force: true });
    rmSync(nodeBox.root, { recursive: true, force: true });
  }
}

const synced = { tokens: 490_000, agoMs: 60_000 };
// Each state, and whether sh renders it: it leaves to Node every render that raises or drops a marker, and every
// state it does not vouch for.
const CASES: { name: string; state: State; input?: Stdin; sh: boolean }[] = [
  { name: "a new reading in the same bands", state: { previous: synced }, sh: true },
  { name: "the same reading, fresh", state: { previous: { tokens: 500_000, agoMs: 60_000 } }, sh: true },
  {
    name: "the same reading, half its freshness gone",
    state: { previous: { tokens: 500_000, agoMs: 200_000 } },
    sh: true,
  },
  { name: "before the first response", state: {}, input: { tokens: null }, sh: true },
  {
    name: "past the first level, still in its band",
    state: { previous: { tokens: 600_000, agoMs: 1_000 } },
    input: { tokens: 610_000 },
    sh: true,
  },
  {
    name: "past the last level (red)",
    state: { previous: { tokens: 850_000, agoMs: 1_000 }, markers: ["announced-60", "announced-85"] },
    input: { tokens: 900_000 },
    sh: true,
  },
  {
    name: "past the auto-compact point",
    state: { previous: { tokens: 970_000, agoMs: 1_000 } },
    input: { tokens: 990_000 },
    sh: true,
  },
  {
    name: "a 200k window",
    state: { previous: { tokens: 60_000, agoMs: 1_000, window: 200_000, auto: 167_000 } },
    input: { tokens: 61_234, window: 200_000 },
    sh: true,
  },
  {
    name: "a window whose point is under three quarters of it",
    state: { previous: { tokens: 10_000, agoMs: 1_000, window: 100_000, auto: 67_000 } },
    input: { tokens: 9_949, window: 100_000 },
    sh: true,
  },
  {
    name: "a model without a display name",
    state: { previous: synced },
    input: { model: { id: "claude-sonnet-5" } },
    sh: true,
  },
  { name: "no model", state: { previous: synced }, input: { model: {} }, sh: true },
  { name: "NO_COLOR", state: { previous: synced, env: { NO_COLOR: "1" } }, sh: true },
  // Claude Code 2.1.332 gives the status line the terminal's width.
  { name: "COLUMNS the line just fits", state: { previous: synced, env: { COLUMNS: "49" } }, sh: true },
  { name: "COLUMNS the line does not fit", state: { previous: synced, env: { COLUMNS: "48" } }, sh: false },
  { name: "COLUMNS not a number", state: { previous: synced, env: { COLUMNS: "wide" } }, sh: false },
  { name: "TERM=dumb", state: { previous: synced, env: { TERM: "dumb" } }, sh: true },
  {
    name: "a compaction whose PostCompact ran before this render",
    state: { previous: { ...synced, agoMs: 10_000 }, compactionAgoMs: 30_000 },
    sh: true,
  },
  {
    name: "a compaction after this render's stdin was written",
    state: { previous: synced, compactionAgoMs: -5_000 },
    sh: true,
  },
  {
    name: "settings that do not move the point",
    state: { previous: synced, files: { "home/.claude/settings.json": '{"model":"opus"}' } },
    sh: true,
  },
  { name: "the first reading", state: {}, sh: false },
  {
    name: "crossing the first level",
    state: { previous: { tokens: 560_000, agoMs: 1_000 } },
    input: { tokens: 630_000 },
    sh: false,
  },
  {
    name: "falling well below a level",
    state: { previous: { tokens: 630_000, agoMs: 1_000 }, markers: ["announced-60"] },
    input: { tokens: 100_000 },
    sh: false,
  },
  { name: "a reading synced for other levels", state: { previous: { ...synced, synced: [50, 80] } }, sh: false },
  { name: "a reading never synced", state: { previous: { ...synced, synced: null } }, sh: false },
  {
    name: "a reading from before the compaction",
    state: { previous: { ...synced, agoMs: 60_000 }, compactionAgoMs: 1_000 },
    sh: false,
  },
  {
    name: "a user config file",
    state: { previous: synced, files: { "home/.claude/carryover/config.json": "{}" } },
    sh: false,
  },
  {
    name: "a project config file",
    state: { previous: synced, files: { "proj/.claude/carryover/config.json": "{}" } },
    sh: false,
  },
  {
    name: "autoCompactWindow in the project's settings",
    state: { previous: synced, files: { "proj/.claude/settings.local.json": '{"autoCompactWindow":200000}' } },
    sh: false,
  },
  ...[
    "CARRYOVER_LEVELS",
    "CARRYOVER_STATUSLINE_FORMAT",
    "CARRYOVER",
    "CARRYOVER_DISABLE",
    "DISABLE_AUTO_COMPACT",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
  ].map((name) => ({
    name: `${name} set`,
    state: { previous: synced, env: { [name]: name === "CARRYOVER_LEVELS" ? "50,70" : "150000" } },
    sh: false,
  })),
  {
    name: "an escape in the model's name",
    state: { previous: synced },
    input: { model: { id: "claude-opus-5-5", display_name: "Opus \u00e9" } },
    sh: false,
  },
  {
    name: "another session's stdin",
    state: { previous: synced },
    input: { extra: { session_id: "another-session" } },
    sh: false,
  },
  {
    name: "an escaped quote in the model's name",
    state: { previous: synced },
    input: { model: { display_name: 'Opus "5"' } },
    sh: false,
  },
  {
    name: "a key twice",
    state: { previous: synced },
    input: { edit: (text) => text.replace("{", '{"model":{"id":"x"},') },
    sh: false,
  },
  {
    name: "stdin that is not JSON",
    state: { previous: synced },
    input: { edit: (text) => text.slice(0, -1) },
    sh: false,
  },
];

describe.each(AWKS.filter((awk) => existsSync(awk.path)))("the render in sh with $name", ({ name: awk }) => {
  it.each(CASES)("$name", ({ state, input, sh }) => {
    const result = renders(state, stdin(input), awk);
    expect(result.sh === null ? "Node" : "sh").toBe(sh ? "sh" : "Node");
    if (result.sh === null) return;
    expect(result.sh).toBe(result.node);
    const { times: shTimes, ...shRest } = result.shEffects;
    const { times: nodeTimes, ...nodeRest } = result.nodeEffects;
    expect(shRest).toEqual(nodeRest);
    expect(shRest.log).toBe("");
    if (!shTimes || !nodeTimes) return expect(shTimes).toEqual(nodeTimes);
    // sh counts whole seconds; each sets the mtime to the end of the reading's freshness.
    expect(Math.abs(shTimes.atMs - nodeTimes.atMs)).toBeLessThan(3_000);
    expect(shTimes.fresh - shTimes.atMs).toBe(nodeTimes.fresh - nodeTimes.atMs);
    expect(Math.abs(shTimes.mtimeMs - shTimes.fresh)).toBeLessThan(1_000);
    expect(Math.abs(shTimes.taken - nodeTimes.taken)).toBeLessThan(3_000);
  });
});

it("a render left to Node after sh read its stdin is Node's whole render: the reading recorded, the line shown", () => {
  const box = sandbox({});
  try {
    const command = `carryover_statusline=${BIN}; . "$carryover_statusline"`;
    const path = [join(process.execPath, ".."), "/usr/bin", "/bin"].join(":");
    const result = spawnSync("/bin/sh", ["-c", command], {
      env: { ...box.env, PATH: path, NO_COLOR: "1" },
      input: stdin(),
      encoding: "utf8",
    });
    expect(result).toMatchObject({
      status: 0,
      stderr: "",
      stdout: "ctx 51% · 500k of 967k to auto-compact · Opus 5.5",
    });
    expect(effects(box).reading).toMatchObject({ contextTokens: 500_000, syncedLevels: [60, 85] });
  } finally {
    rmSync(box.root, { recursive: true, force: true });
  }
});
