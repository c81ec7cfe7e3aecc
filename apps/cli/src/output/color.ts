import type { Io } from "../io.ts";

export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI colours on a TTY; none when NO_COLOR is set to anything non-empty (no-color.org). */
export function palette(io: Io): Palette {
  const enabled = io.stdoutIsTty && !io.env.NO_COLOR;
  if (!enabled) return { bold: plain, dim: plain, green: plain, yellow: plain, red: plain, cyan: plain };
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    red: sgr(31, 39),
    cyan: sgr(36, 39),
  };
}
