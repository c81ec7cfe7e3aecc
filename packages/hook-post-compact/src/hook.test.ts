import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Config,
  hasMarker,
  loadConfig,
  loadLastCompaction,
  loadReading,
  openSession,
  type PostCompactInput,
  processStartMs,
  readLedger,
  readMarker,
  recordReading,
  writeMarker,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keys } from "./config.ts";
import { hook } from "./hook.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let home: string;
let env: Record<string, string>;
const session = () => openSession(env, SESSION);

function input(overrides: Partial<PostCompactInput> = {}): PostCompactInput {
  return {
    session_id: SESSION,
    transcript_path: join(home, "t.jsonl"),
    cwd: home,
    hook_event_name: "PostCompact",
    trigger: "manual",
    prompt_id: "p-1",
    compact_summary: "<analysis>thinking</analysis>\n<summary>Adopted plan B; plan A rejected (too slow).</summary>",
    ...overrides,
  };
}

async function invoke(
  payload: PostCompactInput,
  nowMs = 1_000,
  config: Config<typeof keys> = loadConfig("post-compact", keys, env),
) {
  const session = openSession(env, payload.session_id);
  return hook.run(
    { input: payload, event: "PostCompact", env, nowMs, config, projectDir: home, session, log: () => {} },
    undefined,
  );
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-post-compact-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("post-compact run", async () => {
  it("leaves a compaction marker with trigger and prompt id, and prints nothing", async () => {
    expect(await invoke(input({ trigger: "auto", prompt_id: "p-9" }), 5_000)).toBeNull();
    const marker = readMarker(session(), "compacted", { nowMs: 5_000 });
    expect(marker).toMatchObject({ createdAtMs: 5_000, data: { trigger: "auto", promptId: "p-9" } });
  });

  it("files only the <summary> part of every compaction in the ledger, in order", async () => {
    await invoke(input({ prompt_id: "p-1" }), 1_000);
    await invoke(input({ prompt_id: "p-2", compact_summary: "<summary>second</summary>" }), 2_000);
    expect(readLedger(session())).toEqual([
      { atMs: 1_000, trigger: "manual", promptId: "p-1", summary: "Adopted plan B; plan A rejected (too slow)." },
      { atMs: 2_000, trigger: "manual", promptId: "p-2", summary: "second" },
    ]);
  });

  it("keeps at most ledgerMaxEntries summaries", async () => {
    const config = loadConfig("post-compact", keys, { ...env, CARRYOVER_POST_COMPACT_LEDGER_MAX_ENTRIES: "2" });
    for (let i = 1; i <= 3; i++) await invoke(input({ compact_summary: `<summary>s${i}</summary>` }), i, config);
    expect(readLedger(session()).map((entry) => entry.summary)).toEqual(["s2", "s3"]);
  });

  it("re-arms the context levels and forgets the reading taken before the compaction", async () => {
    writeMarker(session(), "level-60", {}, 1);
    writeMarker(session(), "announced-60", {}, 1);
    recordReading(session(), {
      source: "statusline",
      contextTokens: 700_000,
      modelWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
      atMs: 1,
    });
    await invoke(input());
    expect(hasMarker(session(), "level-60")).toBe(false);
    expect(hasMarker(session(), "announced-60")).toBe(false);
    expect(loadReading(session())).toBeNull();
  });

  it("counts the compactions and fences off readings taken by status lines started before it", async () => {
    await invoke(input({ prompt_id: "c1" }));
    await invoke(input({ prompt_id: "c2" }));
    expect(loadLastCompaction(session())).toMatchObject({ seq: 2, promptId: "c2", startedMs: processStartMs() });
    const before = processStartMs() - 10;
    const reading = {
      source: "statusline",
      contextTokens: 1,
      modelWindowTokens: 2,
      autoCompactTokens: 2,
      atMs: 1,
    } as const;
    recordReading(session(), { ...reading, takenByProcessStartedMs: before });
    expect(loadReading(session())).toBeNull();
  });

  it("skips the ledger when there is no summary", async () => {
    await invoke(input({ compact_summary: null }));
    expect(readLedger(session())).toEqual([]);
    expect(hasMarker(session(), "compacted")).toBe(true);
  });
});
