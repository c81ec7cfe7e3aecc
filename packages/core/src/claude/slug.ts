const MAX_SLUG_CHARS = 200;

/** Claude Code's 32-bit string hash (2.1.332, read from the binary): h = h * 31 + code, wrapped. */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The directory name Claude Code gives a path under `~/.claude/projects/`: every character outside
 * `[a-zA-Z0-9]` becomes `-`; past 200 characters, the first 200 plus `-` and a base-36 hash.
 */
export function projectSlug(absolutePath: string): string {
  const slug = absolutePath.replace(/[^a-zA-Z0-9]/g, "-");
  if (slug.length <= MAX_SLUG_CHARS) return slug;
  return `${slug.slice(0, MAX_SLUG_CHARS)}-${Math.abs(stringHash(absolutePath)).toString(36)}`;
}
