import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  hasMarker,
  loadConfig,
  loadReading,
  openSession,
  processStartMs,
  readMarker,
  removeMarker,
  type StatusLineContext,
  writeMarker,
} from "@carryover/core";
import { payload } from "@carryover/test-fixtures/payloads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChainOutcome } from "./chain.ts";
import { keys } from "./config.ts";
import { CHAINED_ENV, type Chain, FALLBACK_LINE, render } from "./hook.ts";

const SESSION = "9c6cd707-b302-43ce-83ed-ec04fb1bd89d";
let home: string;
let logged: string[];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-statusline-"));
  logged = [];
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The captured status line stdin (Opus 5.5, 1M window) with `tokens` as the last response's input. */
function stdin(tokens: number | null, patch: (value: any) => void = () => {}): string {
  const value = payload("statusline");
  value.session_id = SESSION;
  value.context_window.current_usage =
    tokens === null
      ? null
      : { input_tokens: tokens, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  patch(value);
  return JSON.stringify(value);
}

interface Options {
  env?: Record<string, string>;
  nowMs?: number;
  enabled?: boolean;
  chain?: Chain;
}

function show(
  stdinText: string,
  { env: extraEnv = {}, nowMs = 1_000_000, enabled = true, chain }: Options = {},
): Promise<string> {
  const env = { HOME: home, NO_COLOR: "1", ...extraEnv };
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(stdinText);
  } catch {
    // the runtime hands null on for unparseable stdin
  }
  const sessionId = parsed?.session_id;
  const context: StatusLineContext<typeof keys> = {
    stdinText,
    payload: parsed,
    session: typeof sessionId === "string" && /^[\w-]+$/.test(sessionId) ? openSession(env, sessionId) : null,
    env,
    nowMs,
    config: loadConfig("statusline", keys, env, home),
    projectDir: home,
    enabled,
    log: (line) => logged.push(line),
  };
  return render(context, chain ?? (() => Promise.reject(new Error("no chain expected"))));
}

const chainWith =
  (
    outcome: ChainOutcome,
    seen: Array<{ command: string; stdinText: string; env: Record<string, string | undefined> }> = [],
  ): Chain =>
  async (command, stdinText, options) => {
    seen.push({ command, stdinText, env: { ...options.env } });
    return outcome;
  };

// 967,000 = 1,000,000 − 20,000 − 13,000: Claude Code 2.1.332's auto-compact point for the 1M window.
describe("the line", () => {
  it("shows the share of the auto-compact point, tokens against that point, and the model", async () => {
    expect(await show(stdin(600_000))).toBe("ctx 62% · 600k of 967k to auto-compact · Opus 5.5");
  });

  it("counts cache reads and cache creation as context, as Claude Code does", async () => {
    const text = stdin(100_000, (value) => {
      value.context_window.current_usage.cache_read_input_tokens = 20_000;
      value.context_window.current_usage.cache_creation_input_tokens = 5_000;
    });
    expect(await show(text)).toBe("ctx 12% · 125k of 967k to auto-compact · Opus 5.5");
  });

  it("adds the share of the model window when the auto-compact point is far below it", async () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" };
    expect(await show(stdin(150_000), { env })).toBe(
      "ctx 89% · 150k of 167k to auto-compact · 15% of 1M window · Opus 5.5",
    );
  });

  it("reads the auto-compact window from Claude Code's settings.json too", async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude/settings.json"), JSON.stringify({ autoCompactWindow: 100_000 }));
    expect(await show(stdin(33_500))).toBe("ctx 50% · 34k of 67k to auto-compact · 3% of 1M window · Opus 5.5");
  });

  it("shows a dash before the first response (current_usage null) and records nothing", async () => {
    expect(await show(stdin(null))).toBe("ctx – · – of 967k to auto-compact · Opus 5.5");
    expect(loadReading(openSession({ HOME: home }, SESSION))).toBeNull();
  });

  it("shows 0% right after /compact (all zeros)", async () => {
    expect(await show(JSON.stringify({ ...payload("statusline.after-manual-compact"), session_id: SESSION }))).toBe(
      "ctx 0% · 0 of 967k to auto-compact · Opus 5.5",
    );
  });

  it("says when auto-compaction is off and measures against the window", async () => {
    const line = await show(stdin(620_000), { env: { DISABLE_AUTO_COMPACT: "1" } });
    expect(line).toBe("ctx 62% of window · 620k of 1M · auto-compact off · Opus 5.5");
  });

  it("follows a configured format and drops the segments left empty", async () => {
    const env = { CARRYOVER_STATUSLINE_FORMAT: "{percent} · {left} left · {windowNote} · {model}" };
    expect(
      await show(
        stdin(600_000, (value) => delete value.model),
        { env },
      ),
    ).toBe("62% · 367k left");
  });

  it("cuts a model name that is no name (a 10 MB string) instead of printing it", async () => {
    const line = await show(
      stdin(600_000, (value) => (value.model = { id: "x", display_name: "m".repeat(10 * 1024 * 1024) })),
    );
    expect(line).toBe(`ctx 62% · 600k of 967k to auto-compact · ${"m".repeat(59)}…`);
  });

  it("guesses the window from the model when Claude Code reports none", async () => {
    const text = stdin(100_000, (value) => {
      delete value.context_window.context_window_size;
      value.model = { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" };
    });
    expect(await show(text)).toBe("ctx 59% · 100k of 167k to auto-compact · Sonnet 4.5");
  });

  it("prints a minimal line for stdin that is not JSON, and logs why", async () => {
    expect(await show("{not json")).toBe(FALLBACK_LINE);
  });

  it("still shows the line for an unsafe session id, without recording anything", async () => {
    expect(await show(stdin(600_000, (value) => (value.session_id = "../../etc")))).toBe(
      "ctx 62% · 600k of 967k to auto-compact · Opus 5.5",
    );
    expect(loadReading(openSession({ HOME: home }, SESSION))).toBeNull();
  });
});

describe("colour and width", () => {
  const color = { NO_COLOR: "", CARRYOVER_STATUSLINE_COLOR: "auto" };

  it("is green below the first level, yellow from it, red from the last level", async () => {
    expect(await show(stdin(500_000), { env: color })).toBe(
      "\x1b[32mctx 51% · 500k of 967k to auto-compact · Opus 5.5\x1b[0m",
    );
    expect(await show(stdin(600_000), { env: color })).toMatch(/^\x1b\[33mctx 62%/);
    expect(await show(stdin(830_000), { env: color })).toMatch(/^\x1b\[31mctx 85%/);
  });

  it("has no colour with NO_COLOR or color never, and colour with color always despite NO_COLOR", async () => {
    expect(await show(stdin(600_000), { env: { NO_COLOR: "1" } })).not.toContain("\x1b[");
    expect(await show(stdin(600_000), { env: { ...color, CARRYOVER_STATUSLINE_COLOR: "never" } })).not.toContain(
      "\x1b[",
    );
    expect(await show(stdin(600_000), { env: { NO_COLOR: "1", CARRYOVER_STATUSLINE_COLOR: "always" } })).toMatch(
      /^\x1b\[33m/,
    );
  });

  it("drops trailing segments to fit COLUMNS, then cuts with an ellipsis", async () => {
    expect(await show(stdin(600_000), { env: { COLUMNS: "40" } })).toBe("ctx 62% · 600k of 967k to auto-compact");
    expect(await show(stdin(600_000), { env: { COLUMNS: "20" } })).toBe("ctx 62%");
    expect(await show(stdin(600_000), { env: { COLUMNS: "5" } })).toBe("ctx…");
  });
});

describe("reading and level markers", () => {
  const env = { HOME: "" };
  const session = () => openSession(env, SESSION);
  beforeEach(() => {
    env.HOME = home;
  });

  it("records the reading for the session: tokens, window, auto-compact point, percentages, model, time", async () => {
    await show(stdin(600_000), { nowMs: 5_000 });
    expect(loadReading(session())).toEqual({
      source: "statusline",
      contextTokens: 600_000,
      modelWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
      autoCompactPercent: 62,
      windowPercent: 60,
      tokensToAutoCompact: 367_000,
      model: "claude-opus-5-5",
      atMs: 5_000,
      freshUntilMs: 305_000,
      syncedLevels: [60, 85],
      takenByProcessStartedMs: processStartMs(),
    });
  });

  it("records nothing when this process started before the last PostCompact (its stdin predates it)", async () => {
    // What PostCompact leaves, as if its process had started just after this one.
    const dir = session().ensureDir();
    writeFileSync(join(dir, "compaction.json"), JSON.stringify({ seq: 1, startedMs: processStartMs() + 10, atMs: 1 }));
    expect(await show(stdin(900_000), { nowMs: 5_000 })).toContain("ctx 93%");
    expect(loadReading(session())).toBeNull();
    expect(hasMarker(session(), "level-85")).toBe(false);
  });

  it("rewrites an unchanged reading only once half its freshness has passed", async () => {
    await show(stdin(600_000), { nowMs: 5_000 });
    await show(stdin(600_000), { nowMs: 100_000 });
    expect(loadReading(session())?.atMs).toBe(5_000);
    await show(stdin(600_000), { nowMs: 200_000 });
    expect(loadReading(session())?.atMs).toBe(200_000);
    await show(stdin(610_000), { nowMs: 200_001 });
    expect(loadReading(session())).toMatchObject({ contextTokens: 610_000, atMs: 200_001 });
  });

  it("syncs the levels when the percentage enters another band of a level, not within one", async () => {
    await show(stdin(600_000), { nowMs: 5_000 });
    removeMarker(session(), "level-60");
    // 62% → 63%, and the unchanged reading rewritten later: still at or above 60, below 85 - 10.
    await show(stdin(610_000), { nowMs: 6_000 });
    await show(stdin(610_000), { nowMs: 200_000 });
    expect(hasMarker(session(), "level-60")).toBe(false);
    // 77%: within the re-arm margin of 85.
    await show(stdin(745_000), { nowMs: 200_001 });
    expect(hasMarker(session(), "level-60")).toBe(true);
  });

  it("syncs again when the configured levels changed since the last reading", async () => {
    await show(stdin(600_000), { nowMs: 5_000 });
    removeMarker(session(), "level-60");
    await show(stdin(610_000), { nowMs: 6_000, env: { CARRYOVER_LEVELS: "60,90" } });
    expect(hasMarker(session(), "level-60")).toBe(true);
    expect(loadReading(session())?.syncedLevels).toEqual([60, 90]);
  });

  it("a reading whose level sync failed is synced again with the next one; the failure is logged", async () => {
    const { mkdirSync, rmSync, writeFileSync } = await import("node:fs");
    const markers = join(session().dir, "markers");
    mkdirSync(session().dir, { recursive: true, mode: 0o700 });
    writeFileSync(markers, "a file where the markers dir should be");
    await show(stdin(600_000), { nowMs: 5_000 });
    expect(logged.join("\n")).toMatch(/reading not recorded/);
    expect(loadReading(session())).toMatchObject({ contextTokens: 600_000 });
    expect(loadReading(session())?.syncedLevels).toBeUndefined();
    rmSync(markers);
    await show(stdin(610_000), { nowMs: 6_000 });
    expect(hasMarker(session(), "level-60")).toBe(true);
  });

  it("raises level-60 when the context reaches 60% of the auto-compact point, not before", async () => {
    await show(stdin(570_000));
    expect(hasMarker(session(), "level-60")).toBe(false);
    await show(stdin(600_000), { nowMs: 7_000 });
    expect(readMarker(session(), "level-60", { nowMs: 7_000 })).toMatchObject({
      createdAtMs: 7_000,
      data: { percent: 62, contextTokens: 600_000 },
    });
    expect(hasMarker(session(), "level-85")).toBe(false);
  });

  it("raises every level passed at once", async () => {
    await show(stdin(900_000));
    expect(hasMarker(session(), "level-60")).toBe(true);
    expect(hasMarker(session(), "level-85")).toBe(true);
  });

  it("does not raise a level already announced", async () => {
    writeMarker(session(), "announced-60", {}, 1);
    await show(stdin(600_000));
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("drops a pending level the context fell back below", async () => {
    await show(stdin(600_000));
    await show(stdin(570_000));
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("re-arms after /compact: the zeros clear the announced levels", async () => {
    writeMarker(session(), "announced-60", {}, 1);
    writeMarker(session(), "announced-85", {}, 1);
    await show(JSON.stringify({ ...payload("statusline.after-manual-compact"), session_id: SESSION }));
    expect(hasMarker(session(), "announced-60")).toBe(false);
    expect(hasMarker(session(), "announced-85")).toBe(false);
    await show(stdin(600_000));
    expect(hasMarker(session(), "level-60")).toBe(true);
  });

  it("keeps an announced level while the context only dips a little below it", async () => {
    writeMarker(session(), "announced-60", {}, 1);
    await show(stdin(530_000));
    expect(hasMarker(session(), "announced-60")).toBe(true);
    await show(stdin(600_000));
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("follows the configured levels", async () => {
    await show(stdin(400_000), { env: { CARRYOVER_LEVELS: "40" } });
    expect(hasMarker(session(), "level-40")).toBe(true);
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("raises nothing when auto-compaction is off", async () => {
    await show(stdin(900_000), { env: { DISABLE_AUTO_COMPACT: "1" } });
    expect(hasMarker(session(), "level-60")).toBe(false);
  });

  it("still shows the line when the state dir is unusable", async () => {
    const { writeFileSync, mkdirSync } = await import("node:fs");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude/carryover"), "a file where a dir should be");
    expect(await show(stdin(600_000))).toBe("ctx 62% · 600k of 967k to auto-compact · Opus 5.5");
    expect(logged.join("\n")).toMatch(/reading not recorded/);
  });
});

describe("chaining", () => {
  const chainEnv = (position = "after") => ({
    CARRYOVER_STATUSLINE_CHAIN_COMMAND: "my-statusline --fancy",
    CARRYOVER_STATUSLINE_CHAIN_POSITION: position,
  });

  it("runs the chained command with the same stdin and a recursion guard", async () => {
    const seen: Parameters<typeof chainWith>[1] = [];
    const text = stdin(600_000);
    await show(text, { env: chainEnv(), chain: chainWith({ lines: ["main ✓"] }, seen) });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.command).toBe("my-statusline --fancy");
    expect(seen[0]!.stdinText).toBe(text);
    expect(seen[0]!.env[CHAINED_ENV]).toBe("1");
  });

  it("places the chained output after, before, above or below ours", async () => {
    const chain = chainWith({ lines: ["main ✓", "second row"] });
    const ours = "ctx 62% · 600k of 967k to auto-compact · Opus 5.5";
    expect(await show(stdin(600_000), { env: chainEnv("after"), chain })).toBe(`${ours} │ main ✓\nsecond row`);
    expect(await show(stdin(600_000), { env: chainEnv("before"), chain })).toBe(`main ✓ │ ${ours}\nsecond row`);
    expect(await show(stdin(600_000), { env: chainEnv("above"), chain })).toBe(`main ✓\nsecond row\n${ours}`);
    expect(await show(stdin(600_000), { env: chainEnv("below"), chain })).toBe(`${ours}\nmain ✓\nsecond row`);
  });

  it("shortens ours, never theirs, to share a row within COLUMNS", async () => {
    const chain = chainWith({ lines: ["\x1b[35m~/proj main\x1b[0m"] });
    const env = { ...chainEnv("after"), COLUMNS: "30" };
    expect(await show(stdin(600_000), { env, chain })).toBe("ctx 62% │ \x1b[35m~/proj main\x1b[0m");
    const narrow = { ...chainEnv("after"), COLUMNS: "16" };
    expect(await show(stdin(600_000), { env: narrow, chain })).toBe("ctx 62%\n\x1b[35m~/proj main\x1b[0m");
  });

  it("shows ours alone when the chained command fails or hangs, and logs why", async () => {
    const chain = chainWith({ problem: "chainCommand did not finish within 1000 ms; killed" });
    expect(await show(stdin(600_000), { env: chainEnv(), chain })).toBe(
      "ctx 62% · 600k of 967k to auto-compact · Opus 5.5",
    );
    expect(logged).toContain("chainCommand did not finish within 1000 ms; killed");
  });

  it("does not chain from inside a chained run", async () => {
    const env = { ...chainEnv(), [CHAINED_ENV]: "1" };
    expect(await show(stdin(600_000), { env })).toBe("ctx 62% · 600k of 967k to auto-compact · Opus 5.5");
  });

  it("shows only the chained output when carryover is switched off", async () => {
    expect(
      await show(stdin(600_000), { env: chainEnv(), enabled: false, chain: chainWith({ lines: ["main ✓"] }) }),
    ).toBe("main ✓");
    expect(loadReading(openSession({ HOME: home }, SESSION))).toBeNull();
  });

  it("still runs the chained command when stdin is unreadable to us", async () => {
    const seen: Parameters<typeof chainWith>[1] = [];
    expect(await show("{not json", { env: chainEnv(), chain: chainWith({ lines: ["theirs"] }, seen) })).toBe(
      `${FALLBACK_LINE} │ theirs`,
    );
    expect(seen[0]!.stdinText).toBe("{not json");
  });
});
