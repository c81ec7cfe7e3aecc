import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runChained } from "./chain.ts";

const env = { PATH: process.env.PATH };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-chain-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Running, not a zombie: in a container nobody may reap the orphans a kill leaves. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

it("hands the command our stdin through /bin/sh and returns its rows without the trailing newline", async () => {
  const outcome = await runChained(`printf 'theirs:'; cat; printf '\\r\\nrow2\\n\\n'`, '{"session_id":"s"}', {
    timeoutMs: 5_000,
    env,
  });
  expect(outcome).toEqual({ lines: ['theirs:{"session_id":"s"}', "row2"] });
});

it("hands the command the NODE_OPTIONS and NODE_EXTRA_CA_CERTS the executable's prelude kept for it", async () => {
  const kept = {
    ...env,
    CARRYOVER_USER_NODE_OPTIONS: "--require ./theirs.cjs",
    CARRYOVER_USER_NODE_EXTRA_CA_CERTS: "",
  };
  const command =
    `printf '%s|%s|%s' "$NODE_OPTIONS" "\${NODE_EXTRA_CA_CERTS-unset}" ` + `"\${CARRYOVER_USER_NODE_OPTIONS-gone}"`;
  expect(await runChained(command, "", { timeoutMs: 5_000, env: kept })).toEqual({
    lines: ["--require ./theirs.cjs||gone"],
  });
  const command2 = `printf '%s' "\${NODE_OPTIONS-unset}"`;
  expect(await runChained(command2, "", { timeoutMs: 5_000, env })).toEqual({ lines: ["unset"] });
});

it("hands the command the user's NODE_COMPILE_CACHE, or none where the prelude gave our Node its own", async () => {
  const command = `printf '%s|%s' "\${NODE_COMPILE_CACHE-unset}" "\${CARRYOVER_NODE_COMPILE_CACHE-gone}"`;
  const ours = { ...env, NODE_COMPILE_CACHE: "/ours", CARRYOVER_NODE_COMPILE_CACHE: "/ours" };
  const chain = (given: Record<string, string | undefined>) =>
    runChained(command, "", { timeoutMs: 5_000, env: given });
  expect(await chain(ours)).toEqual({ lines: ["unset|gone"] });
  expect(await chain({ ...ours, CARRYOVER_USER_NODE_COMPILE_CACHE: "/theirs" })).toEqual({ lines: ["/theirs|gone"] });
  // Run as `node <file>` (no prelude): the environment is the user's as it is.
  expect(await chain({ ...env, NODE_COMPILE_CACHE: "/theirs" })).toEqual({ lines: ["/theirs|gone"] });
});

it("passes the environment it is given", async () => {
  expect(
    await runChained(`printf '%s' "$CHAIN_PROBE"`, "", { timeoutMs: 5_000, env: { ...env, CHAIN_PROBE: "seen" } }),
  ).toEqual({ lines: ["seen"] });
});

it("gives up on a command that hangs and kills everything it started", async () => {
  const pidFile = join(dir, "pid");
  const outcome = await runChained(`sleep 30 & echo $! > '${pidFile}'; wait`, "", { timeoutMs: 300, env });
  expect(outcome).toEqual({ problem: "chainCommand did not finish within 300 ms; killed" });
  const pid = Number(readFileSync(pidFile, "utf8"));
  for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(isAlive(pid)).toBe(false);
});

// A job the chained shell leaves in the background neither holds the line nor is killed.
it("takes the output when the shell exits, whatever it leaves in the background", async () => {
  const done = join(dir, "done");
  const started = Date.now();
  const outcome = await runChained(`( sleep 1; echo late; touch '${done}' ) & echo mine`, "", {
    timeoutMs: 5_000,
    env,
  });
  expect(outcome).toEqual({ lines: ["mine"] });
  expect(Date.now() - started).toBeLessThan(1_000);
  for (let i = 0; i < 100 && !existsSync(done); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(done)).toBe(true);
});

it("leaves no file behind for the output", async () => {
  const tmp = join(dir, "tmp");
  mkdirSync(tmp);
  expect(await runChained("echo fine", "", { timeoutMs: 5_000, env: { ...env, TMPDIR: tmp } })).toEqual({
    lines: ["fine"],
  });
  expect(readdirSync(tmp)).toEqual([]);
});

it("discards the output of a command that exits non-zero, as Claude Code does", async () => {
  expect(await runChained("echo half a line; exit 3", "", { timeoutMs: 5_000, env })).toEqual({
    problem: "chainCommand exited with 3; its output is not shown",
  });
});

it("does not mind a command that never reads its stdin", async () => {
  expect(await runChained("echo fine", "x".repeat(1024 * 1024), { timeoutMs: 5_000, env })).toEqual({
    lines: ["fine"],
  });
});
