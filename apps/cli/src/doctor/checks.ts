import type { Context } from "../context.ts";
import type { HookEnv } from "../settings/hook-env.ts";
import type { InstalledSite, Layer } from "../settings/layers.ts";
import type { PluginInstall } from "../settings/plugins.ts";

export interface Check {
  status: "ok" | "warn" | "fail";
  title: string;
  /** What to do about a warn or fail. */
  fix?: string | undefined;
}

export const ok = (title: string): Check => ({ status: "ok", title });
export const warn = (title: string, fix: string): Check => ({ status: "warn", title, fix });
export const fail = (title: string, fix: string): Check => ({ status: "fail", title, fix });

/** What `carryover doctor` reads once, for every check group (a file of this folder each) to look at. */
export interface DoctorFacts {
  context: Context;
  /** `context` with the environment Claude Code starts the hooks with: settings.json `env` over this shell's. */
  hookContext: Context;
  hookEnv: HookEnv;
  /** This project's settings files, lowest first. */
  layers: readonly Layer[];
  /** carryover's registrations in them. */
  sites: readonly InstalledSite[];
  /** Every hook and skill name the release or the install record knows. */
  hookNames: readonly string[];
  /** carryover's hooks Claude Code runs as plugins here. */
  plugins: readonly PluginInstall[];
}

export type CheckGroup = (facts: DoctorFacts) => Check[];
