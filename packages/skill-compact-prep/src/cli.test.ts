import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import {
  openSession,
  projectSlug,
  readCompactState,
  recordCompaction,
  renderState,
  verifyState,
} from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callLine, promptLine, resultLine, writeTranscript } from "../../../test-fixtures/transcripts/lines.ts";
import { type CliIO, runStateCli } from "./cli.ts";

const SESSION = "292a2a51-de5b-4500-91e5-548294a01232";
let root: string;
let env: Record<string, string>;

function cli(argv: string[], extraEnv: Record<string, string> = {}) {
  const output = { stdout: "", stderr: "" };
  const code = runStateCli(argv, io(output, extraEnv, Readable.from([])));
  return { code, ...output };
}

function io(output: { stdout: string; stderr: string }, extraEnv: Record<string, string>, stdin: CliIO["stdin"]) {
  return {
    env: { ...env, ...extraEnv },
    cwd: join(root, "proj"),
    nowMs: Date.UTC(2026, 10, 29, 17, 0),
    stdin,
    out: (text: string) => (output.stdout += text),
    err: (text: string) => (output.stderr += text),
  };
}

/** `carryover-state write` with `stdin` (a heredoc's text), once it has exited. */
async function write(stdin: string | CliIO["stdin"]) {
  const output = { stdout: "", stderr: "" };
  const input = typeof stdin === "string" ? Readable.from([stdin]) : stdin;
  const code = await runStateCli(["write"], io(output, {}, input));
  return { code, ...output };
}

const stateDir = () => join(root, "tmp", `claude-${process.getuid?.() ?? 0}`, "carryover", "compact-state");
const statePath = () => join(stateDir(), `${SESSION}.md`);
const filled = renderState([], {
  "## Active Plan": "~/.claude/plans/p.md",
  "## Session Decisions": "Adopted B; rejected A (too slow).",
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-state-"));
  mkdirSync(join(root, "tmp"));
  mkdirSync(join(root, "proj"));
  env = { HOME: join(root, "home"), TMPDIR: join(root, "tmp"), CLAUDE_CODE_SESSION_ID: SESSION };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("session id", () => {
  it("comes from CLAUDE_CODE_SESSION_ID, and --session wins over it", () => {
    expect(cli(["session-id"]).stdout).toBe(`${SESSION}\n`);
    expect(cli(["session-id", "--session", "other-1"]).stdout).toBe("other-1\n");
    expect(cli(["session-id", "--session=other-2"]).stdout).toBe("other-2\n");
  });

  it("falls back to the env when --session is empty (an unsubstituted ${CLAUDE_SESSION_ID} in bash)", () => {
    expect(cli(["session-id", "--session", ""]).stdout).toBe(`${SESSION}\n`);
  });

  it("is refused when there is none: one line, exit 1, nothing written; CLAUDE_SESSION_ID does not count", () => {
    delete env.CLAUDE_CODE_SESSION_ID;
    const result = cli(["init"], { CLAUDE_SESSION_ID: SESSION });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^carryover-state: no session id: .*CLAUDE_CODE_SESSION_ID.*\n$/),
    });
    expect(result.stderr.split("\n")).toHaveLength(2);
    expect(existsSync(join(root, "tmp", `claude-${process.getuid?.() ?? 0}`))).toBe(false);
  });

  it("refuses an id that is not a plain token", () => {
    const result = cli(["path", "--session", "../../etc/x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^carryover-state: session id "\.\.\/\.\.\/etc\/x" is not a safe token/);
  });
});

describe("path", () => {
  it("is <TMPDIR>/claude-<uid>/carryover/compact-state/<session>.md by default", () => {
    expect(cli(["path"])).toEqual({ code: 0, stdout: `${statePath()}\n`, stderr: "" });
  });

  it("follows the stateDir config key (user config file, then env)", () => {
    mkdirSync(join(root, "home", ".claude", "carryover"), { recursive: true });
    writeFileSync(
      join(root, "home", ".claude", "carryover", "config.json"),
      JSON.stringify({ stateDir: join(root, "states") }),
    );
    expect(cli(["path"]).stdout).toBe(`${join(root, "states", SESSION)}.md\n`);
    expect(cli(["path"], { CARRYOVER_STATE_DIR: join(root, "env-states") }).stdout).toBe(
      `${join(root, "env-states", SESSION)}.md\n`,
    );
  });
});

describe("init", () => {
  it("writes a template with every header in a private dir", () => {
    const result = cli(["init"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(statePath());
    const text = readFileSync(statePath(), "utf8");
    expect(verifyState(text)).toEqual({ ok: true, missing: [], outOfOrder: [] });
    expect(text).toContain(`Session: ${SESSION}`);
    expect(statSync(stateDir()).mode & 0o777).toBe(0o700);
  });

  it("never overwrites an existing state without --force", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled);
    const result = cli(["init"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/already exists; pass --force/);
    expect(readFileSync(statePath(), "utf8")).toBe(filled);
  });

  it("with --force keeps the previous state as <path>.bak and says so", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled);
    const result = cli(["init", "--force"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`previous state is kept in ${statePath()}.bak`);
    expect(readFileSync(`${statePath()}.bak`, "utf8")).toBe(filled);
    expect(readFileSync(statePath(), "utf8")).not.toContain("rejected A");
  });

  it("with --force over an unfilled template keeps the older real backup", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled);
    cli(["init", "--force"]);
    const second = cli(["init", "--force"]);
    expect(second.stdout).not.toContain(".bak");
    expect(readFileSync(`${statePath()}.bak`, "utf8")).toBe(filled);
  });

  it("notes beside the state how many compactions PostCompact had counted, for the hooks to order it by", () => {
    cli(["init"]);
    expect(readCompactState(env, SESSION)?.stamp).toBe(0);
    const session = openSession(env, SESSION);
    recordCompaction(session, "p1", 1_000);
    recordCompaction(session, "p2", 2_000);
    writeFileSync(statePath(), filled);
    expect(cli(["init", "--force"]).code).toBe(0);
    expect(readFileSync(`${statePath()}.meta`, "utf8")).toBe('{"compactions":2}\n');
    expect(readCompactState(env, SESSION)?.stamp).toBe(2);
  });

  it("refuses a state dir that is a symlink", () => {
    mkdirSync(join(root, "elsewhere"));
    mkdirSync(dirname(stateDir()), { recursive: true, mode: 0o700 });
    symlinkSync(join(root, "elsewhere"), stateDir());
    const result = cli(["init"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing .*compact-state: it is a symlink/);
    expect(existsSync(join(root, "elsewhere", `${SESSION}.md`))).toBe(false);
  });

  it("refuses Claude Code's per-user temp dir when others can write it, and writes nothing in it", () => {
    const temp = dirname(dirname(stateDir()));
    mkdirSync(temp, { mode: 0o700 });
    chmodSync(temp, 0o777);
    const result = cli(["init"]);
    expect(result).toMatchObject({
      code: 1,
      stderr: `carryover-state: refusing ${temp}: writable by others (mode 777)\n`,
    });
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe("write", () => {
  it("saves the state on stdin, stamped as init stamps it, leaving no temp file", async () => {
    cli(["init"]);
    const session = openSession(env, SESSION);
    recordCompaction(session, "p1", 1_000);
    recordCompaction(session, "p2", 2_000);
    const result = await write(filled);
    expect(result).toEqual({
      code: 0,
      stdout: `Saved the state to ${statePath()}: all 9 headers present, in order\n`,
      stderr: "",
    });
    expect(readFileSync(statePath(), "utf8")).toBe(filled);
    expect(readCompactState(env, SESSION)?.stamp).toBe(2);
    expect(readdirSync(stateDir()).sort()).toEqual([`${SESSION}.md`, `${SESSION}.md.meta`]);
  });

  it("needs no init before it: makes the private state dir", async () => {
    expect((await write(filled.trimEnd())).code).toBe(0);
    expect(readFileSync(statePath(), "utf8")).toBe(`${filled.trimEnd()}\n`);
    expect(statSync(stateDir()).mode & 0o777).toBe(0o700);
    expect(readCompactState(env, SESSION)?.stamp).toBe(0);
  });

  it.each([
    [
      "a missing header",
      filled.replace("## Worker Topology\n", ""),
      /missing "## Worker Topology"; the headers must be/,
    ],
    ["a template nobody filled", renderState([], {}), /every section is still empty/],
    ["nothing", "", /stdin is empty/],
    ["over 1 MiB", filled + "x".repeat(1024 * 1024), /the state on stdin is over 1048576 bytes/],
  ])("refuses %s in one line, exit 1, and keeps the previous state and its stamp", async (_, text, reason) => {
    await write(filled);
    recordCompaction(openSession(env, SESSION), "p1", 1_000);
    const result = await write(text);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^carryover-state: nothing written, \S+ is unchanged: [^\n]+\n$/);
    expect(result.stderr).toContain(statePath());
    expect(result.stderr).toMatch(reason);
    expect(readFileSync(statePath(), "utf8")).toBe(filled);
    expect(readCompactState(env, SESSION)?.stamp).toBe(0);
  });

  it("refuses a state dir others can write to, and a terminal for stdin", async () => {
    mkdirSync(stateDir(), { recursive: true });
    chmodSync(stateDir(), 0o777);
    const unsafe = await write(filled);
    expect(unsafe.code).toBe(1);
    expect(unsafe.stderr).toMatch(/^carryover-state: refusing [^\n]+writable by others[^\n]*\n$/);
    expect(existsSync(statePath())).toBe(false);

    const tty = await write(Object.assign(Readable.from([filled]), { isTTY: true }));
    expect(tty.code).toBe(2);
    expect(tty.stderr).toBe("carryover-state: write reads the state from stdin: pipe it in or give it as a heredoc\n");
  });
});

describe("verify", () => {
  it("passes a filled state with every header in order", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled);
    expect(cli(["verify"])).toEqual({
      code: 0,
      stdout: `${statePath()}: all 9 headers present, in order\n`,
      stderr: "",
    });
  });

  it("names the missing headers and exits 1", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled.replace("## Worker Topology\n", "").replace("## Recovery Notes\n", ""));
    const result = cli(["verify"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing "## Worker Topology", "## Recovery Notes"; the headers must be/);
    expect(result.stderr.split("\n")).toHaveLength(2);
  });

  it("names headers out of order", () => {
    cli(["init"]);
    writeFileSync(
      statePath(),
      filled
        .replace("## Current Phase", "## TEMP")
        .replace("## TaskList Summary", "## Current Phase")
        .replace("## TEMP", "## TaskList Summary"),
    );
    const result = cli(["verify"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/out of order "## TaskList Summary"/);
  });

  it("fails on a template nobody filled", () => {
    cli(["init"]);
    const result = cli(["verify"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/every section is still empty/);
  });

  it("fails when there is no state file, and refuses a symlinked one", () => {
    expect(cli(["verify"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no state file at .*run carryover-state init/),
    });
    cli(["init"]);
    rmSync(statePath());
    writeFileSync(join(root, "target.md"), filled);
    symlinkSync(join(root, "target.md"), statePath());
    expect(cli(["verify"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/it is a symlink/) });
  });
});

describe("show and usage", () => {
  it("show prints the state file", () => {
    cli(["init"]);
    writeFileSync(statePath(), filled);
    expect(cli(["show"])).toEqual({ code: 0, stdout: filled, stderr: "" });
  });

  it("help prints every command; bad invocations are one line and exit 2", () => {
    const help = cli(["help"]);
    expect(help.code).toBe(0);
    for (const command of ["session-id", "path", "init", "write", "verify", "show"])
      expect(help.stdout).toContain(`  ${command} `);
    for (const argv of [
      [],
      ["frobnicate"],
      ["verify", "--force"],
      ["path", "--sesion", "x"],
      ["path", "extra"],
      ["init", "--session"],
    ]) {
      const result = cli(argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^carryover-state: [^\n]+ \(see carryover-state help\)\n$/);
    }
  });
});

describe("workers", () => {
  it("prints the workers the session's transcript records, for ## Worker Topology", async () => {
    const transcript = join(env.HOME!, ".claude/projects", projectSlug(join(root, "proj")), `${SESSION}.jsonl`);
    mkdirSync(join(transcript, ".."), { recursive: true });
    writeTranscript(transcript, [
      promptLine("serve it"),
      callLine("c1", "Bash", { command: "pnpm dev", description: "dev server", run_in_background: true }),
      resultLine(
        "c1",
        "Command running in background with ID: b1. Output is being written to: /tmp/t/b1.output.",
        false,
        { backgroundTaskId: "b1" },
      ),
    ]);
    let stdout = "";
    const code = await runStateCli(["workers"], {
      env,
      cwd: root,
      nowMs: 0,
      stdin: Readable.from([]),
      out: (text) => (stdout += text),
      err: () => {},
    });
    expect(code).toBe(0);
    expect(stdout).toBe(
      "Still at work:\n" + "- shell `b1` “dev server”: `pnpm dev` — running; output: /tmp/t/b1.output\n",
    );
  });

  it("says it found no transcript, and still exits 0", async () => {
    let stdout = "";
    expect(
      await runStateCli(["workers"], {
        env,
        cwd: root,
        nowMs: 0,
        stdin: Readable.from([]),
        out: (text) => (stdout += text),
        err: () => {},
      }),
    ).toBe(0);
    expect(stdout).toMatch(new RegExp(`^No transcript of session ${SESSION} under .*: no workers read\\.\\n$`));
  });
});
