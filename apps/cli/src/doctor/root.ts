import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { carryoverRoot, checkCarryoverRoot, errorMessage, refusedRootLogPath } from "@carryover/core";
import { tildify, tildifyPaths } from "../output/display.ts";
import { type Check, type DoctorFacts, fail, ok } from "./checks.ts";

/**
 * carryover's root as the hooks find it. GNU stow folds `~/.claude/carryover` into a symlink to the user's dotfiles:
 * the hooks follow it to a dir the user owns that nobody else can write, and refuse anything else, logging why to
 * `~/.claude/carryover.log` (outside the refused dir). Every stateful hook then does nothing.
 */
export function rootChecks({ context }: DoctorFacts): Check[] {
  const { env } = context;
  const root = carryoverRoot(env);
  const shown = tildify(root, env);
  let trusted: string;
  try {
    trusted = checkCarryoverRoot(env);
  } catch (error) {
    const log = refusedRootLogPath(env);
    const last = lastLine(log);
    const logged = last ? `; the hooks log that to ${tildify(log, env)}, last: ${last}` : "";
    return [
      fail(
        `${tildifyPaths(errorMessage(error), env)}: every carryover hook does nothing${logged}`,
        fixFor(root, errorMessage(error)),
      ),
    ];
  }
  if (trusted === root) return [];
  return [ok(`${shown} is a symlink to ${tildify(trusted, env)}, a private dir of yours: the hooks follow it`)];
}

function fixFor(root: string, reason: string): string {
  const target = linkTarget(root);
  if (target && /writable by others/.test(reason)) return `chmod 700 ${target}`;
  if (target && /does not exist/.test(reason)) return `mkdir -m 700 ${target}`;
  if (target)
    return `replace the link with a dir of your own: rm ${root} && mkdir -m 700 ${root} (and move config.json into it)`;
  return /writable by others/.test(reason)
    ? `chmod 700 ${root}`
    : `rm -r ${root} if it is not yours; the hooks make it again`;
}

/** The link's target (resolved when it exists); null when the root is no link. */
function linkTarget(root: string): string | null {
  if (!lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink()) return null;
  try {
    return realpathSync(root);
  } catch {
    return resolve(dirname(root), readlinkSync(root));
  }
}

function lastLine(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").at(-1) || null;
  } catch {
    return null;
  }
}
