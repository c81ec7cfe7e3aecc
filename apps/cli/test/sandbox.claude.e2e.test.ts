// Claude Code's sandbox on (bubblewrap and socat, as Debian ships them): /compact-prep saves the state from a
// sandboxed Bash, the hooks read it outside. doctor says when they would not meet, and its fix makes them.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { createSandbox, expectSuccess, mockScript, runPrint, type Sandbox } from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";
import { CLI, carryover } from "./cli-run.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const hasBwrap = spawnSync("bwrap", ["--version"]).status === 0;

function doctorFailures(box: Sandbox): string[] {
  const result = spawnSync(process.execPath, [CLI, "doctor", "--json"], {
    cwd: box.project,
    env: box.env,
    encoding: "utf8",
  });
  const report = JSON.parse(result.stdout) as { checks: Array<{ status: string; title: string; fix?: string }> };
  return report.checks.filter((check) => check.status === "fail").map((check) => `${check.title} | fix: ${check.fix}`);
}

/** `carryover-state <command>` as /compact-prep runs it: a Bash command of the session, in the sandbox. */
async function stateFromBash(box: Sandbox, command: string): Promise<{ sessionId: string; output: string }> {
  const state = join(box.claudeDir, "skills/compact-prep/carryover-state");
  const run = await runPrint(
    box,
    `save ${mockScript([{ tool: "Bash", input: { command: `${state} ${command}` } }, { text: "ok" }])}`,
  );
  const sessionId = expectSuccess(run);
  const results = JSON.stringify(box.mock.requests().at(-1)).match(
    /"tool_result"[\s\S]*?"content":"((?:[^"\\]|\\.)*)"/,
  );
  return { sessionId, output: results ? (JSON.parse(`"${results[1]}"`) as string) : "" };
}

it.skipIf(!hasBwrap)(
  "the default state dir under the sandbox: doctor passes and the hooks find the state saved from Bash",
  async () => {
    sandbox = await createSandbox({ settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } } });
    carryover(sandbox, ["install", "compact-prep", "recovery", "--statusline", "skip"]);
    expect(doctorFailures(sandbox)).toEqual([]);
    const saved = await stateFromBash(sandbox, "init");
    expect(saved.output).not.toMatch(/Read-only|EROFS|error/i);
    const facts = JSON.parse(carryover(sandbox, ["status", saved.sessionId, "--json"])).stateFile;
    expect(facts).toMatchObject({ exists: true, headersOk: true });
  },
);

it.skipIf(!hasBwrap)(
  "a configured state dir Bash cannot write under the sandbox: doctor fails; its fix passes",
  async () => {
    sandbox = await createSandbox({ settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } } });
    carryover(sandbox, ["install", "compact-prep", "recovery", "--statusline", "skip"]);
    carryover(sandbox, ["config", "stateDir", join(sandbox.home, "states")]);
    const [failure] = doctorFailures(sandbox);
    expect(failure).toMatch(/^Claude Code's sandbox is on and the state dir .*\/states is read-only to its Bash/);
    const before = await stateFromBash(sandbox, "init");
    expect(before.output).toMatch(/EROFS/);

    carryover(
      sandbox,
      failure!
        .split(" | fix: ")[1]!
        .replace(/^carryover /, "")
        .split(" "),
    );
    expect(doctorFailures(sandbox)).toEqual([]);
  },
);
