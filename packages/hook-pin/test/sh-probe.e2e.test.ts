import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHook } from "@carryover/core";
import { shOutput } from "@carryover/test-fixtures/e2e";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hook } from "../src/hook.ts";

const BIN = join(import.meta.dirname, "../dist/carryover-pin.cjs");
const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;
let awkDirs: string;

// The awks users have: Debian's and Ubuntu's (mawk), most other Linux's (gawk), and two that stop a string at a NUL:
// the BSDs' and macOS's (the one true awk, Debian's original-awk) and Alpine's (busybox).
const AWKS = [
  { name: "mawk", path: "/usr/bin/mawk", keepsEveryByte: true },
  { name: "gawk", path: "/usr/bin/gawk", keepsEveryByte: true },
  { name: "original-awk", path: "/usr/bin/original-awk", keepsEveryByte: false },
  { name: "busybox", path: "/usr/bin/busybox", keepsEveryByte: false },
];

beforeAll(() => {
  awkDirs = mkdtempSync(join(tmpdir(), "carryover-pin-awks-"));
  for (const awk of AWKS) {
    mkdirSync(join(awkDirs, awk.name));
    if (existsSync(awk.path)) symlinkSync(awk.path, join(awkDirs, awk.name, "awk"));
  }
});
afterAll(() => rmSync(awkDirs, { recursive: true, force: true }));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-pin-sh-"));
  mkdirSync(join(root, "proj/.claude/carryover"), { recursive: true });
  mkdirSync(join(root, "home/.claude/carryover"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const projectPin = () => join(root, "proj/.claude/carryover/pinned.md");
const userPin = () => join(root, "home/.claude/carryover/pinned.md");

function hookEnv(extra: Record<string, string>): Record<string, string> {
  return {
    HOME: join(root, "home"),
    CLAUDE_PROJECT_DIR: join(root, "proj"),
    CLAUDE_CODE_SESSION_ID: SESSION,
    ...extra,
  };
}

function payload(env: Record<string, string>): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: join(root, "t.jsonl"),
    cwd: env.CLAUDE_PROJECT_DIR,
    prompt_id: "p",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
  });
}

/** What Node prints for the prompt: the hook's own code, run in this process on the same files and environment. */
async function nodeOutput(env: Record<string, string>): Promise<string> {
  let output = "";
  await runHook(hook, env, {
    readInput: async () => payload(env),
    writeOutput: (text) => {
      output += text;
    },
    writeTrace: () => {},
  });
  return output;
}

/** sh's output where the prelude decided (null: it left the prompt to Node), and Node's, on the same state. */
async function outputs(extra: Record<string, string> = {}, awk = "mawk") {
  const env = hookEnv(extra);
  const sh = shOutput(BIN, "UserPromptSubmit", env, { input: payload(env), path: join(awkDirs, awk) });
  return { sh, node: await nodeOutput(env) };
}

const text = (value: string) => Buffer.from(value, "utf8");
const LONG_PIN = "- one line of a pinned.md far over the budget\n".repeat(40_000);

/** The bytes the traced processes read from `path` (strace -f lines: pid, then the call). */
function bytesRead(trace: string, path: string): number {
  const open = new Set<string>();
  let total = 0;
  for (const line of trace.split("\n")) {
    const opened = /^(\d+) openat\(AT_FDCWD, "([^"]+)", [^)]*\) = (\d+)$/.exec(line);
    if (opened && opened[2] === path) open.add(`${opened[1]}:${opened[3]}`);
    const closed = /^(\d+) close\((\d+)\)/.exec(line);
    if (closed) open.delete(`${closed[1]}:${closed[2]}`);
    const read = /^(\d+) read\((\d+), .* = (\d+)$/.exec(line);
    if (read && open.has(`${read[1]}:${read[2]}`)) total += Number(read[3]);
  }
  return total;
}
const bytes = (...values: number[]) => Buffer.from(values);

describe("pin's prompt in sh prints what Node prints, or leaves it to Node", () => {
  it.each<[string, () => void, (() => Record<string, string>)?]>([
    ["a project pinned.md", () => writeFileSync(projectPin(), "- never push to main\n- open a PR\n")],
    ["a user pinned.md", () => writeFileSync(userPin(), "- run the tests first\n")],
    [
      "both, the project's first",
      () => {
        writeFileSync(projectPin(), "- project rule\n");
        writeFileSync(userPin(), "- user rule\n");
      },
    ],
    [
      "one pinned.md when the project is HOME",
      () => writeFileSync(userPin(), "- once\n"),
      () => ({ CLAUDE_PROJECT_DIR: join(root, "home") }),
    ],
    ["quotes, backslashes, tabs and CRLF", () => writeFileSync(projectPin(), '- "quote" \\ back\tslash\r\n- crlf\r\n')],
    ["UTF-8 text: accents, a dash, an emoji", () => writeFileSync(projectPin(), "- café — déjà vu 🚀\n- 東京\n")],
    ["a BOM and no-break spaces around it", () => writeFileSync(projectPin(), "\uFEFF\u00A0 - rule \u3000\u2028\n")],
    ["lines that start and end blank", () => writeFileSync(projectPin(), "\n\n  \t- rule\n\n   \n")],
    ["no last newline", () => writeFileSync(projectPin(), "- rule")],
    ["a whitespace-only pinned.md", () => writeFileSync(projectPin(), " \n\t\r\n")],
    ["Unicode spaces only", () => writeFileSync(projectPin(), "\u00A0\u2003\uFEFF\n")],
    ["a file of exactly the budget", () => writeFileSync(projectPin(), `${"x".repeat(7999)}\n`)],
    [
      "config files that leave pin's keys alone",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        writeFileSync(join(root, "home/.claude/carryover/config.json"), '{"levels":[50,85]}');
        writeFileSync(join(root, "proj/.claude/carryover/config.json"), '{"statusline":{"chainTimeoutMs":500}}');
      },
    ],
    [
      "a broken config file, which Node logs and reads as no config",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        writeFileSync(join(root, "home/.claude/carryover/config.json"), '{"levels": [50,');
      },
    ],
    ["the switch on", () => writeFileSync(projectPin(), "- rule\n"), () => ({ CARRYOVER: "1" })],
    [
      "another hook turned off",
      () => writeFileSync(projectPin(), "- rule\n"),
      () => ({ CARRYOVER_DISABLE: "statusline" }),
    ],
  ])("sh prints it for %s", async (_, setup, extra = () => ({})) => {
    setup();
    const { sh, node } = await outputs(extra());
    expect(sh).not.toBeNull();
    expect(sh).toBe(node);
  });

  it("prints the same for a project dir whose name needs escaping", async () => {
    const project = join(root, 'a "quoted" \\ dir');
    mkdirSync(join(project, ".claude/carryover"), { recursive: true });
    writeFileSync(join(project, ".claude/carryover/pinned.md"), "- rule\n");
    const { sh, node } = await outputs({ CLAUDE_PROJECT_DIR: project });
    expect(sh).toContain('a \\"quoted\\" \\\\ dir');
    expect(sh).toBe(node);
  });

  it.each<[string, () => void, (() => Record<string, string>)?]>([
    [
      "a linked pinned.md",
      () => {
        writeFileSync(join(root, "real.md"), "x\n");
        symlinkSync(join(root, "real.md"), projectPin());
      },
    ],
    ["a dangling link", () => symlinkSync(join(root, "gone.md"), userPin())],
    ["a dir where pinned.md goes", () => mkdirSync(projectPin())],
    [
      "a config file",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        writeFileSync(join(root, "home/.claude/carryover/config.json"), '{"pin":{"maxBytes":200}}');
      },
    ],
    [
      "a project config file that sets pin's keys",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        writeFileSync(join(root, "proj/.claude/carryover/config.json"), '{"pin":{"everyTurns":2}}');
      },
    ],
    [
      "a config key spelt with an escape",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        writeFileSync(join(root, "home/.claude/carryover/config.json"), '{"p\\u0069n":{"maxBytes":200}}');
      },
    ],
    [
      "a dir where the config file goes",
      () => {
        writeFileSync(projectPin(), "- rule\n");
        mkdirSync(join(root, "home/.claude/carryover/config.json"));
      },
    ],
    ["a config env var", () => writeFileSync(projectPin(), "- rule\n"), () => ({ CARRYOVER_PIN_EVERY_TURNS: "3" })],
    [
      "a bad shared env var, which Node logs",
      () => writeFileSync(projectPin(), "- rule\n"),
      () => ({ CARRYOVER_LEVELS: "x" }),
    ],
    [
      "pin turned off as only Node reads it",
      () => writeFileSync(projectPin(), "- rule\n"),
      () => ({ CARRYOVER_DISABLE: " pin" }),
    ],
    ["every hook turned off in capitals", () => writeFileSync(projectPin(), "- rule\n"), () => ({ CARRYOVER: " OFF" })],
    [
      "a project dir spelt with a trailing slash",
      () => writeFileSync(projectPin(), "- rule\n"),
      () => ({ CLAUDE_PROJECT_DIR: `${join(root, "proj")}/` }),
    ],
    ["a file over the budget", () => writeFileSync(projectPin(), `${"x".repeat(8001)}\n`)],
    ["a file of 2 MB", () => writeFileSync(projectPin(), LONG_PIN)],
    [
      "two files over the budget together",
      () => {
        writeFileSync(projectPin(), `${"x".repeat(5000)}\n`);
        writeFileSync(userPin(), `${"y".repeat(3500)}\n`);
      },
    ],
    ["invalid UTF-8", () => writeFileSync(projectPin(), Buffer.concat([text("- a "), bytes(0xc3, 0x28), text("\n")]))],
    ["an overlong NUL", () => writeFileSync(projectPin(), Buffer.concat([text("- a "), bytes(0xc0, 0x80)]))],
    ["a NUL", () => writeFileSync(projectPin(), Buffer.concat([text("- a"), bytes(0), text("b\n")]))],
    ["a control character", () => writeFileSync(projectPin(), "- bell \u0007 here\n")],
    ["a form feed", () => writeFileSync(projectPin(), "\f- rule\n")],
  ])("leaves it to Node for %s", async (_, setup, extra = () => ({})) => {
    setup();
    expect((await outputs(extra())).sh).toBeNull();
  });

  it("reads no more of a long pinned.md than the budget needs", () => {
    // Reading on (and joining each line to all before it), awk took 29 s over 2 MB: past Claude Code's timeout.
    writeFileSync(projectPin(), LONG_PIN);
    const env = hookEnv({});
    const trace = join(root, "trace.txt");
    expect(shOutput(BIN, "UserPromptSubmit", env, { path: join(awkDirs, "mawk"), trace })).toBeNull();
    expect(bytesRead(readFileSync(trace, "utf8"), projectPin())).toBeLessThan(16 * 1024);
  });

  it("leaves a context over Claude Code's cap to Node, which cuts it", async () => {
    // Paths of about 2,000 characters frame two pins that fit the budget into more than 10,000 characters.
    const deep = join(root, ...Array.from({ length: 10 }, (_, i) => `${i}`.repeat(200)));
    mkdirSync(join(deep, ".claude/carryover"), { recursive: true });
    mkdirSync(join(deep, "home/.claude/carryover"), { recursive: true });
    writeFileSync(join(deep, ".claude/carryover/pinned.md"), `${"p".repeat(3900)}\n`);
    writeFileSync(join(deep, "home/.claude/carryover/pinned.md"), `${"u".repeat(3900)}\n`);
    const { sh, node } = await outputs({ CLAUDE_PROJECT_DIR: deep, HOME: join(deep, "home") });
    expect(sh).toBeNull();
    expect(node).toContain("cut by carryover to stay within the hook output limit");
  });

  it("leaves the prompt to Node when no awk is found", async () => {
    writeFileSync(projectPin(), "- rule\n");
    const env = hookEnv({});
    const empty = join(root, "bin");
    mkdirSync(empty);
    expect(shOutput(BIN, "UserPromptSubmit", env, { input: payload(env), path: empty, systemDirs: false })).toBeNull();
  });
});

const userConfig = () => join(root, "home/.claude/carryover/config.json");
const CONFIGS = [
  '{"levels":[50,85]}',
  '{"pin":{"maxBytes":100}}',
  '{"pin":{"everyTurns":2}}',
  '{"p\\u0069n":{"maxBytes":100}}',
  '{"levels": [50,',
];

// The pieces a pinned.md is made of, in the proportions that make the edge cases common.
const PIECES = [
  "- rule",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  '"',
  "\\",
  "é",
  "—",
  "🚀",
  "\u00A0",
  "\uFEFF",
  "\u2028",
  "\u3000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\f",
  "\u000b",
  "\u0000",
].map(text);
const ODD_BYTES = [bytes(0xff), bytes(0x80), bytes(0xc0, 0x80), bytes(0xe2, 0x80), bytes(0xed, 0xa0, 0x80)];

function randomPin(random: () => number): Buffer {
  const parts: Buffer[] = [];
  const count = Math.floor(random() * 12);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.04) parts.push(ODD_BYTES[Math.floor(random() * ODD_BYTES.length)]!);
    else if (roll < 0.08) parts.push(text("x".repeat(Math.floor(random() * 4500))));
    else parts.push(PIECES[Math.floor(random() * PIECES.length)]!);
  }
  return Buffer.concat(parts);
}

/** A small seeded generator (mulberry32): a failure names its seed, and the same seed makes the same files. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(AWKS)("on random pinned.md files, with $name as awk", (awk) => {
  const runs = awk.name === "mawk" ? 60 : 25;
  it.skipIf(!existsSync(awk.path))(`sh agrees with Node on ${runs} states`, async () => {
    let decided = 0;
    let printed = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const random = seeded(seed);
      rmSync(projectPin(), { force: true });
      rmSync(userPin(), { force: true });
      rmSync(userConfig(), { force: true });
      if (random() < 0.8) writeFileSync(projectPin(), randomPin(random));
      if (random() < 0.4) writeFileSync(userPin(), randomPin(random));
      if (random() < 0.3) writeFileSync(userConfig(), CONFIGS[Math.floor(random() * CONFIGS.length)]!);
      const { sh, node } = await outputs({}, awk.name);
      if (sh !== null) {
        decided++;
        if (sh !== "") printed++;
        expect(sh, `seed ${seed}`).toBe(node);
      }
    }
    // mawk and gawk take the common cases; the others, which lose bytes, only the prompts with nothing pinned.
    if (awk.keepsEveryByte) expect(decided).toBeGreaterThan(runs / 4);
    else expect(printed).toBe(0);
  });
});
