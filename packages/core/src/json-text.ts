import { CarryoverError } from "./errors.ts";

/** JSON.parse with a one-line error naming the file, line and column (a BOM is tolerated). */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : body.length;
    const { line, column } = lineColumn(body, offset);
    const reason = message.replace(/ in JSON at position \d+.*$/, "").replace(/^JSON\.parse: /, "");
    throw new CarryoverError("BAD_INPUT", `${file}:${line}:${column}: invalid JSON: ${reason}`);
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
