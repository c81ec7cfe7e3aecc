import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { claudeBin, type Sandbox } from "@carryover/test-fixtures/e2e";
import { loadRelease, type Release } from "../src/release/manifest.ts";

/** The built CLI and the release it ships (apps/cli/dist): what a user runs. */
export const CLI = join(import.meta.dirname, "../dist/carryover.cjs");
export const shippedRelease = (): Release => loadRelease(join(import.meta.dirname, "../dist/release"));

/** `carryover <args>` as the sandbox's user; throws with the output unless it exits `expectedCode`. */
export function carryover(sandbox: Sandbox, args: string[], expectedCode = 0): string {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: sandbox.project,
    env: sandbox.env,
    encoding: "utf8",
  });
  if (result.status !== expectedCode) {
    throw new Error(
      `carryover ${args.join(" ")} exited ${result.status}, expected ${expectedCode}\n` +
        `stdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return result.stdout;
}

/** `claude <args>` (plugin commands: no model) as the sandbox's user; throws with the output unless it exits 0. */
export function claude(sandbox: Sandbox, args: string[]): string {
  const result = spawnSync(claudeBin(), args, {
    cwd: sandbox.project,
    env: sandbox.env,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `claude ${args.join(" ")} exited ${result.status}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return result.stdout;
}
