import { fstatSync, read, readFileSync } from "node:fs";
import { CarryoverError } from "./errors.ts";

export interface StdinLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Reads all of stdin. A regular file is read synchronously (it cannot block); a pipe is read with a
 * deadline, so a writer that never closes cannot hang a hook. A terminal reads as empty.
 */
export function readStdin({ maxBytes, timeoutMs }: StdinLimits): Promise<string> {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return Promise.resolve("");
  }
  if (stat.isCharacterDevice()) return Promise.resolve("");
  if (stat.isFile()) {
    if (stat.size > maxBytes) return Promise.reject(tooLarge(maxBytes));
    return Promise.resolve(readFileSync(0, "utf8"));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let reading = false;
    const timer = setTimeout(() => {
      reject(new CarryoverError("BAD_INPUT", `stdin not closed within ${timeoutMs} ms`));
      // The read still blocks a libuv pool thread and process.exit joins those threads first (Node 20):
      // it would wait for the writer forever, so a signal ends the process. Reading through a net.Socket
      // would allow a clean exit, but loading it costs ~5 ms on every run (measured), for a case
      // Claude Code never creates: it closes stdin after the payload.
      process.once("exit", () => {
        if (reading) process.kill(process.pid, "SIGKILL");
      });
    }, timeoutMs);
    const next = () => {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      reading = true;
      read(0, buffer, 0, buffer.length, null, (error, bytesRead) => {
        reading = false;
        if (error) {
          clearTimeout(timer);
          if ((error as NodeJS.ErrnoException).code === "EOF") resolve(Buffer.concat(chunks).toString("utf8"));
          else reject(error);
          return;
        }
        if (bytesRead === 0) {
          clearTimeout(timer);
          resolve(Buffer.concat(chunks).toString("utf8"));
          return;
        }
        total += bytesRead;
        if (total > maxBytes) {
          clearTimeout(timer);
          reject(tooLarge(maxBytes));
          return;
        }
        chunks.push(buffer.subarray(0, bytesRead));
        next();
      });
    };
    next();
  });
}

function tooLarge(maxBytes: number): CarryoverError {
  return new CarryoverError("BAD_INPUT", `stdin larger than ${maxBytes} bytes`);
}
