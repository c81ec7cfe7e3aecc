import { readFileSync, readSync } from "node:fs";
import { CarryoverError } from "../errors.ts";

export interface StdinLimits {
  maxBytes: number;
  /** How long a non-blocking stdin may stay without data before the read gives up. */
  timeoutMs: number;
}

export const HOOK_STDIN_LIMITS: StdinLimits = { maxBytes: 16 * 1024 * 1024, timeoutMs: 5_000 };
export const STATUSLINE_STDIN_LIMITS: StdinLimits = { maxBytes: 4 * 1024 * 1024, timeoutMs: 2_000 };

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads stdin to its end, synchronously, in one native call: `readFileSync(fd, "utf8")` starts no thread
 * pool, where an asynchronous read starts libuv's and a `readSync` loop costs a call per chunk. Like `cat`,
 * it waits for the writer to close: Claude Code writes the payload and closes, and
 * a parent built on libuv (Node, Bun) always hands its child a blocking stdin. A non-blocking one that
 * stays empty gives up after `timeoutMs`.
 */
export function readStdinSync({ maxBytes, timeoutMs }: StdinLimits, fd = 0): string {
  let text: string;
  try {
    text = readFileSync(fd, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    text = readNonBlocking(fd, maxBytes, timeoutMs);
  }
  if (text.length > maxBytes) throw tooLarge(maxBytes);
  return text;
}

function readNonBlocking(fd: number, maxBytes: number, timeoutMs: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  let idleSinceMs = Date.now();
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytesRead: number;
    try {
      bytesRead = readSync(fd, buffer, 0, CHUNK_BYTES, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      if (Date.now() - idleSinceMs >= timeoutMs)
        throw new CarryoverError("BAD_INPUT", `stdin not closed within ${timeoutMs} ms`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
      continue;
    }
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(buffer.subarray(0, bytesRead));
    idleSinceMs = Date.now();
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

function tooLarge(maxBytes: number): CarryoverError {
  return new CarryoverError("BAD_INPUT", `stdin larger than ${maxBytes} bytes`);
}
