import type { Contribution } from "./model.ts";

/**
 * What the context holds since the last compaction, by transcript line. A compaction keeps only the
 * messages it preserved verbatim (2.1.332 names them by uuid in the boundary line), so entries are kept
 * per line until then.
 */
export class ContextSegment {
  private entries = new Map<string, Contribution[]>();
  private anonymous = 0;

  add(uuid: unknown, contributions: readonly Contribution[]): void {
    if (contributions.length === 0) return;
    const key = typeof uuid === "string" ? uuid : `#${++this.anonymous}`;
    const existing = this.entries.get(key);
    if (existing) existing.push(...contributions);
    else this.entries.set(key, [...contributions]);
  }

  compact(preservedUuids: readonly unknown[]): void {
    const kept = new Map<string, Contribution[]>();
    for (const uuid of preservedUuids) {
      const entry = typeof uuid === "string" ? this.entries.get(uuid) : undefined;
      if (entry) kept.set(uuid as string, entry);
    }
    this.entries = kept;
  }

  *contributions(): Generator<Contribution> {
    for (const entry of this.entries.values()) yield* entry;
  }
}
