// Prints what readStdin made of this process's stdin, as JSON: {"text": …} or {"error": …, "code": …}.
import { writeSync } from "node:fs";
import { readStdin } from "../src/_stdin.ts";

const [maxBytes, timeoutMs] = process.argv.slice(2).map(Number) as [number, number];
readStdin({ maxBytes, timeoutMs })
  .then(
    (text) => writeSync(1, JSON.stringify({ text })),
    (error: Error & { code?: string }) => writeSync(1, JSON.stringify({ error: error.message, code: error.code })),
  )
  .finally(() => process.exit(0));
