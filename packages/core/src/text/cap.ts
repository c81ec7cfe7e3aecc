/** `text`, cut to at most `maxChars` with a visible note saying so. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = "\n[… cut by carryover to stay within the hook output limit]";
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}
