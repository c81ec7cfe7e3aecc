import { assertSafeSessionId, CarryoverError, type Env } from "@carryover/core";

/**
 * `--session`, else `CLAUDE_CODE_SESSION_ID`, which Claude Code 2.1.332 sets in Bash tool commands.
 * `CLAUDE_SESSION_ID` is not read: Claude Code never sets it (it only substitutes `${CLAUDE_SESSION_ID}` in SKILL.md).
 */
export function resolveSessionId(flag: string | undefined, env: Env): string {
  const value = flag ?? env.CLAUDE_CODE_SESSION_ID?.trim();
  if (!value) {
    throw new CarryoverError(
      "BAD_SESSION_ID",
      "no session id: pass --session <id> or run this from Claude Code's Bash tool " +
        "(it sets CLAUDE_CODE_SESSION_ID); nothing was written",
    );
  }
  return assertSafeSessionId(value);
}
