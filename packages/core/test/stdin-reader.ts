// Prints what readStdinSync made of this process's stdin, as JSON: {"text": …} or {"error": …, "code": …}.
import { writeSync } from "node:fs";
import { readStdinSync } from "../src/runtime/_stdin.ts";

const [maxBytes, timeoutMs] = process.argv.slice(2).map(Number) as [number, number];
try {
  writeSync(1, JSON.stringify({ text: readStdinSync({ maxBytes, timeoutMs }) }));
} catch (error) {
  const { message, code } = error as Error & { code?: string };
  writeSync(1, JSON.stringify({ error: message, code }));
}
