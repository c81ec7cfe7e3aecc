/** ANSI styling that turns into plain text when colour is off (not a TTY, NO_COLOR set). */
export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
  warn(text: string): string;
  alarm(text: string): string;
  good(text: string): string;
}

const sgr = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const plain = (text: string) => text;

export function paint(enabled: boolean): Paint {
  if (!enabled) return { bold: plain, dim: plain, accent: plain, warn: plain, alarm: plain, good: plain };
  return { bold: sgr("1"), dim: sgr("2"), accent: sgr("36"), warn: sgr("33"), alarm: sgr("31"), good: sgr("32") };
}

/** Colour for a terminal: only on a TTY, and never with NO_COLOR set (no-color.org), unless FORCE_COLOR. */
export function wantsColor(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return isTTY && env.TERM !== "dumb";
}
