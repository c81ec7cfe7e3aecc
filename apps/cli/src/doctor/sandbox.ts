import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { defaultStateDir, homeDir, loadConfig } from "@carryover/core";
import type { Context } from "../context.ts";
import type { Layer } from "../settings/layers.ts";
import { type Check, fail, ok } from "./checks.ts";

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);

/** `sandbox.enabled` as Claude Code layers it: the last settings file that sets it decides. */
function sandboxSetting(layers: readonly Layer[]): { enabled: boolean; allowWrite: string[] } {
  let enabled = false;
  const allowWrite: string[] = [];
  for (const layer of layers) {
    const sandbox = layer.doc?.value.sandbox as
      | { enabled?: unknown; filesystem?: { allowWrite?: unknown } }
      | undefined;
    if (typeof sandbox?.enabled === "boolean") enabled = sandbox.enabled;
    const paths = sandbox?.filesystem?.allowWrite;
    if (Array.isArray(paths)) allowWrite.push(...paths.filter((path): path is string => typeof path === "string"));
  }
  return { enabled, allowWrite };
}

/**
 * With Claude Code's sandbox on (2.1.332, bubblewrap), a Bash command can write only the project, its TMPDIR
 * (`/tmp/claude-<uid>`, which Claude Code sets for it and not for hooks) and the `sandbox.filesystem.allowWrite`
 * paths that exist when it starts; the rest is a read-only file system. /compact-prep saves the state from Bash
 * (`carryover-state`), the hooks read it outside the sandbox: the state dir must be one both reach, and named,
 * since the default (under TMPDIR) is another dir on each side.
 */
export function sandboxChecks(context: Context, layers: readonly Layer[]): Check[] {
  const sandbox = sandboxSetting(layers);
  if (!sandbox.enabled) return [];
  const bashTmp = `/tmp/claude-${process.getuid?.() ?? 0}`;
  const configured = loadConfig("", {}, context.env, context.projectDir).shared.stateDir;
  const fix = `carryover config stateDir ${join(bashTmp, "claude-compact-state")}`;
  if (!configured) {
    return [
      fail(
        `Claude Code's sandbox is on: /compact-prep's Bash saves the state under ${join(bashTmp, "claude-compact-state")} ` +
          `(Claude Code sets its TMPDIR) and the hooks read ${defaultStateDir(context.env)}: the state would be lost`,
        fix,
      ),
    ];
  }
  const stateDir = resolve(configured);
  const writable = [
    context.projectDir,
    bashTmp,
    ...sandbox.allowWrite.map((path) => resolve(path.replace(/^~(?=\/|$)/, homeDir(context.env)))).filter(existsSync),
  ];
  if (writable.some((dir) => inside(stateDir, dir)))
    return [ok(`the state dir ${stateDir} is writable from sandboxed Bash`)];
  return [
    fail(
      `Claude Code's sandbox is on and the state dir ${stateDir} is read-only to its Bash: /compact-prep cannot save ` +
        `the state (writable there: the project, ${bashTmp}, existing sandbox.filesystem.allowWrite paths)`,
      fix,
    ),
  ];
}
