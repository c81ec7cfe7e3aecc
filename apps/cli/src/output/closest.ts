/** The candidate nearest to `word` by edit distance, or null when none is plausibly meant. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const prefixMatch = candidates.find((candidate) => candidate.startsWith(word) || word.startsWith(candidate));
  if (bestDistance <= Math.max(2, Math.floor(word.length / 3))) return best;
  return prefixMatch ?? null;
}

/** `unknown hook "x"; did you mean "y"?` or the list of what exists. */
export function unknownNameMessage(kind: string, word: string, candidates: readonly string[]): string {
  const suggestion = closest(word, candidates);
  const known = suggestion ? `did you mean "${suggestion}"?` : `known: ${candidates.join(", ")}`;
  return `unknown ${kind} "${word}"; ${known}`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
