import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A race-worker process kept alive across rounds, so each round costs no process start. */
export class Racer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (result: string) => void>();

  constructor(bundle: string, operation: string, home: string, sessionId: string, target = "") {
    this.child = spawn(process.execPath, [bundle, operation, home, sessionId, target], { env: { HOME: home } });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const space = line.indexOf(" ");
      const round = Number(line.slice(0, space));
      this.waiting.get(round)?.(line.slice(space + 1));
      this.waiting.delete(round);
    });
    let stderr = "";
    this.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    this.child.on("close", (code) => {
      for (const resolve of this.waiting.values()) resolve(`error racer exited ${code}: ${stderr.trim()}`);
      this.waiting.clear();
    });
  }

  /** Runs one round at `startAtNs` on the monotonic clock; resolves with "won", "lost" or "error <message>". */
  go(round: number, startAtNs: bigint): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.set(round, resolve);
      this.child.stdin.write(`${round} ${startAtNs}\n`);
    });
  }

  stop(): void {
    this.child.stdin.end();
  }
}

/** An instant far enough ahead for every racer to have read its go line. */
export function startSoon(): bigint {
  return process.hrtime.bigint() + 20_000_000n;
}

/** Races the racers once per round, all starting at the same instant; returns each round's results. */
export async function race(
  racers: readonly Racer[],
  rounds: number,
  before: (round: number) => void,
): Promise<string[][]> {
  const results: string[][] = [];
  for (let round = 1; round <= rounds; round++) {
    before(round);
    const startAtNs = startSoon();
    results.push(await Promise.all(racers.map((racer) => racer.go(round, startAtNs))));
  }
  return results;
}
