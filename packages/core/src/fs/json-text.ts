import { CarryoverError } from "../errors.ts";

/** JSON.parse with a one-line error naming the file, line and column (a BOM is tolerated). */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    // Node 20's V8 quotes the text (newlines too) instead of giving a position for this one.
    const unexpectedToken = /^(Unexpected token '.+?'), (?:"|\.\.\.")/s.exec(message);
    const offset = position ? Number(position[1]) : unexpectedToken ? unexpectedTokenOffset(body) : body.length;
    const { line, column } = lineColumn(body, offset);
    const reason = unexpectedToken
      ? unexpectedToken[1]!
      : message.replace(/ in JSON at position \d+.*$/s, "").replace(/^JSON\.parse: /, "");
    throw new CarryoverError("BAD_INPUT", `${file}:${line}:${column}: invalid JSON: ${reason}`);
  }
}

/** Where the unexpected token is: the end of the shortest prefix that fails on it (every shorter one is valid). */
function unexpectedTokenOffset(body: string): number {
  let low = 0;
  let high = body.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (failsOnToken(body.slice(0, middle + 1))) high = middle;
    else low = middle + 1;
  }
  return low;
}

function failsOnToken(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch (error) {
    return (error as Error).message.startsWith("Unexpected token");
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
