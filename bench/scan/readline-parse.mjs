// The plain way to read a transcript: readline over a stream, JSON.parse of every line.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

let assistant = 0;
let lines = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line === "") continue;
  lines += 1;
  if (JSON.parse(line).type === "assistant") assistant += 1;
}
process.stdout.write(`${JSON.stringify({ lines, assistant })}\n`);
