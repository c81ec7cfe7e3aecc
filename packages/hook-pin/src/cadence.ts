import { join } from "node:path";
import { readJsonNoFollow, type Session, writeFileAtomic } from "@carryover/core";

const STATE_FILE = "pin.json";

interface CadenceState {
  /** Prompts since the pinned text was last injected. */
  promptsSince: number;
  /** Digest of what was injected then: an edited pin is due at once. */
  digest: string;
}

function readState(session: Session): CadenceState | null {
  const state = readJsonNoFollow(join(session.dir, STATE_FILE)) as CadenceState | null;
  return typeof state?.promptsSince === "number" && typeof state.digest === "string" ? state : null;
}

function writeState(session: Session, state: CadenceState): void {
  writeFileAtomic(join(session.ensureDir(), STATE_FILE), JSON.stringify(state));
}

/**
 * Tells an edited pin from the one injected last: FNV-1a, twice with different offsets, 64 bits in hex.
 * Not node:crypto: loading it costs a few ms, and this runs on every prompt that injects.
 */
export function digestOf(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x01000193);
  }
  return (low >>> 0).toString(16).padStart(8, "0") + (high >>> 0).toString(16).padStart(8, "0");
}

/**
 * Counts one prompt and says whether the pinned text is due: on the session's first prompt, every
 * `everyTurns` prompts after the last injection, and as soon as the text changed.
 */
export function takePromptTurn(session: Session, everyTurns: number, digest: string): boolean {
  const state = readState(session);
  const due = !state || state.digest !== digest || state.promptsSince + 1 >= everyTurns;
  writeState(session, due ? { promptsSince: 0, digest } : { promptsSince: state.promptsSince + 1, digest });
  return due;
}

/** After a compaction the text was just injected: the count starts again from there. */
export function recordInjection(session: Session, digest: string): void {
  writeState(session, { promptsSince: 0, digest });
}
