import type { Env } from "../env.ts";

/** `CARRYOVER=0` turns every hook off; `CARRYOVER_DISABLE=statusline,pin` turns off the named ones. */
export function isHookEnabled(env: Env, hook: string): boolean {
  const all = env.CARRYOVER?.trim().toLowerCase();
  if (all === "0" || all === "false" || all === "off" || all === "no") return false;
  const disabled = env.CARRYOVER_DISABLE;
  if (!disabled) return true;
  return !disabled.split(",").some((name) => {
    const trimmed = name.trim();
    return trimmed === hook || trimmed === "all" || trimmed === `hook-${hook}`;
  });
}

/** `CARRYOVER_DEBUG=1` traces each hook's decision to stderr. */
export function isDebug(env: Env): boolean {
  const value = env.CARRYOVER_DEBUG?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false" && value !== "off";
}
