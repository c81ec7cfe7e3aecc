import { isAbsolute, join, normalize, resolve, sep } from "node:path";
import { type Env, homeDir, isTruthy } from "../env.ts";
import { repositoryRoot } from "../fs/git-root.ts";
import { projectsDir } from "./paths.ts";
import { layeredSetting } from "./settings.ts";
import { projectSlug } from "./slug.ts";

const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isSet = (value: unknown): value is unknown => value !== undefined && value !== null;

/**
 * Whether Claude Code keeps auto-memory for this project: off with `CLAUDE_CODE_DISABLE_AUTO_MEMORY`,
 * or `"autoMemoryEnabled": false` in its settings (the last settings file that says so wins).
 */
export function isAutoMemoryEnabled(env: Env, projectDir: string | undefined): boolean {
  if (isTruthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)) return false;
  return layeredSetting(env, projectDir, "autoMemoryEnabled", isBoolean) ?? true;
}

/**
 * The dir Claude Code 2.1.332 loads MEMORY.md from for a session in `cwd` (observed): `autoMemoryDirectory` from
 * the settings when set and valid, else `projects/<slug of the repository>/memory` in its config dir, where a
 * linked worktree counts as its main repository and a dir outside git as itself.
 */
export function autoMemoryDir(env: Env, cwd: string, projectDir = cwd): string {
  const configured = configuredMemoryDir(env, projectDir);
  if (configured !== null) return configured;
  return join(projectsDir(env), projectSlug(repositoryRoot(cwd) ?? resolve(cwd)), "memory");
}

/**
 * `autoMemoryDirectory` as Claude Code takes it: from the settings file nearest the project that sets it (local,
 * project, user); `~/x` is HOME's x; an invalid value (relative, `~` alone, `~/..`, too short, with a NUL) means the
 * default, not a value from a farther file.
 */
function configuredMemoryDir(env: Env, projectDir: string | undefined): string | null {
  const value = layeredSetting(env, projectDir, "autoMemoryDirectory", isSet);
  if (typeof value !== "string" || value === "") return null;
  let path = value;
  if (value.startsWith("~/") || value.startsWith("~\\")) {
    const rest = normalize(value.slice(2) || ".");
    if (rest === "." || rest === ".." || rest.startsWith(`..${sep}`)) return null;
    path = join(homeDir(env), rest);
  }
  const dir = normalize(path).replace(/[/\\]+$/, "");
  if (!isAbsolute(dir) || dir.length < 3 || dir.includes("\0")) return null;
  return dir.normalize("NFC");
}
