import { CarryoverError, writeFileAtomic } from "@carryover/core";
import type { StateLocation } from "./location.ts";
import { stateProblem } from "./problem.ts";

/** Far above any state an agent writes: a runaway pipe is refused before it fills the memory. */
const MAX_STATE_BYTES = 1024 * 1024;

type Input = AsyncIterable<string | Uint8Array> & { isTTY?: boolean | undefined };

/** The whole of stdin as UTF-8, null past `MAX_STATE_BYTES`; refused from a terminal, where nothing would end it. */
export async function readInput(stdin: Input): Promise<string | null> {
  if (stdin.isTTY) {
    throw new CarryoverError("BAD_INPUT", "write reads the state from stdin: pipe it in or give it as a heredoc");
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.from(chunk);
    bytes += buffer.length;
    if (bytes > MAX_STATE_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Saves a whole state document once it passes verify's checks, atomically, then stamps it as `init` does (the
 * hooks order it against compactions by that count). Returns what kept it from being saved, the previous state
 * left as it was; null when saved.
 */
export function writeState(location: StateLocation, text: string | null): string | null {
  const problem =
    text === null
      ? `the state on stdin is over ${MAX_STATE_BYTES} bytes`
      : text.trim() === ""
        ? "stdin is empty; give the whole state document"
        : stateProblem(text);
  if (problem !== null || text === null) return problem;
  location.ensureDir();
  writeFileAtomic(location.path, text.endsWith("\n") ? text : `${text}\n`);
  location.stamp();
  return null;
}
