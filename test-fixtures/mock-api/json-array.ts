/**
 * Returns the JSON array text that starts at `start` (which must be `[`), matching brackets outside strings,
 * or undefined when the array is not closed.
 */
export function sliceJsonArray(text: string, start: number): string | undefined {
  if (text[start] !== "[") return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}
