import { existsSync } from "node:fs";
import { resolve, sep } from "node:path";
import { claudeTempDir, defaultStateDir, homeDir, loadConfig } from "@carryover/core";
import type { Layer } from "../settings/layers.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

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
 * (`<temp dir>/claude-<uid>`, Claude Code's per-user dir, which it sets for Bash and not for hooks) and the
 * `sandbox.filesystem.allowWrite` paths that exist when it starts; the rest is a read-only file system.
 * /compact-prep saves the state from Bash (`carryover-state`) and the hooks read it outside the sandbox: the default
 * state dir is in that per-user dir, where both meet; a configured one must be somewhere Bash may write.
 */
export function sandboxChecks({ hookContext: context, layers }: DoctorFacts): Check[] {
  const sandbox = sandboxSetting(layers);
  if (!sandbox.enabled) return [];
  const bashTmp = claudeTempDir(context.env);
  const configured = loadConfig("", {}, context.env, context.projectDir).shared.stateDir;
  if (!configured) return [ok(`the state dir ${defaultStateDir(context.env)} is writable from sandboxed Bash`)];
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
      `carryover config stateDir --unset`,
    ),
  ];
}
