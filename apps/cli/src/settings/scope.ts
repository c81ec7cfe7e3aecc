import { join, resolve } from "node:path";
import { claudeDir, type Env, projectConfigPath, userConfigPath } from "@carryover/core";

export const SCOPES = ["user", "project", "local"] as const;
export type Scope = (typeof SCOPES)[number];

export interface ScopePaths {
  scope: Scope;
  settingsPath: string;
  /** Where skills go: Claude Code has no local-only skills dir, so local shares the project's. */
  skillsDir: string;
  /** The carryover config file hooks of this scope read (chained statusline command). */
  configPath: string;
}

export function scopePaths(scope: Scope, env: Env, projectDir: string): ScopePaths {
  const project = resolve(projectDir);
  if (scope === "user") {
    return {
      scope,
      settingsPath: join(claudeDir(env), "settings.json"),
      skillsDir: join(claudeDir(env), "skills"),
      configPath: userConfigPath(env),
    };
  }
  const settingsFile = scope === "project" ? "settings.json" : "settings.local.json";
  return {
    scope,
    settingsPath: join(project, ".claude", settingsFile),
    skillsDir: join(project, ".claude", "skills"),
    configPath: projectConfigPath(project),
  };
}

/** Claude Code's own layering, lowest first: a later file's value wins. */
export function layeredScopes(env: Env, projectDir: string): ScopePaths[] {
  return SCOPES.map((scope) => scopePaths(scope, env, projectDir));
}
