import { join } from "node:path";
import { claudeDir, isTruthy } from "@carryover/core";
import { tildify } from "../output/display.ts";
import { type Check, type DoctorFacts, ok, warn } from "./checks.ts";

/** Auto-memory off (env or settings) leaves pre-compact's memory entry and memory-guard nothing to do. */
export function memoryChecks({ context, layers }: DoctorFacts): Check[] {
  const settingsEnv = layers
    .map((layer) => (layer.doc?.value.env as Record<string, unknown> | undefined)?.CLAUDE_CODE_DISABLE_AUTO_MEMORY)
    .filter((value) => typeof value === "string") as string[];
  const disabledBy = isTruthy(context.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)
    ? "CLAUDE_CODE_DISABLE_AUTO_MEMORY in this environment"
    : settingsEnv.some(isTruthy)
      ? "CLAUDE_CODE_DISABLE_AUTO_MEMORY in settings.json env"
      : layers.some((layer) => layer.doc?.value.autoMemoryEnabled === false)
        ? "autoMemoryEnabled: false in settings"
        : null;
  if (!disabledBy)
    return [ok(`auto-memory is on (${tildify(join(claudeDir(context.env), "projects"), context.env)}/…/memory)`)];
  return [
    warn(
      `auto-memory is off (${disabledBy}): pre-compact's dated memory entry and memory-guard have nothing to work on`,
      "unset it if you want carryover's memory entries",
    ),
  ];
}
