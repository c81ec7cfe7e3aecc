// `pnpm lint`'s line check: lines of code at most 120 characters. Biome wraps code at 120 columns but leaves
// strings and comments as they are, so this check reads what Biome cannot fix.
//
// Until the tree is reformatted (Biome's format check is not yet in `pnpm test`), line-length-baseline.json
// allows each file the long lines it had: a file may not gain one, and a file not listed may have none.
// `node scripts/line-length.mjs --update` writes the counts as they are now; with none left, delete the file.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const MAX_CHARS = 120;
const CODE = /\.(?:[cm]?js|[cm]?ts)$/;
const ROOT = join(import.meta.dirname, "..");
const BASELINE = join(import.meta.dirname, "line-length-baseline.json");

const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
  .toString("utf8")
  .split("\0")
  .filter((file) => CODE.test(file));
/** @type {Map<string, string[]>} each file's lines over the limit, as `file:line: N characters` */
const long = new Map();
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(ROOT, file), "utf8");
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const found = [];
  for (const [index, line] of text.split("\n").entries()) {
    // Code points, as an editor counts columns: "…" and "·" are one each.
    const chars = [...line].length;
    if (chars > MAX_CHARS) found.push(`${file}:${index + 1}: ${chars} characters, over ${MAX_CHARS}`);
  }
  if (found.length) long.set(file, found);
}

if (process.argv.includes("--update")) {
  const sorted = [...long].sort(([a], [b]) => (a < b ? -1 : 1));
  const counts = Object.fromEntries(sorted.map(([file, lines]) => [file, lines.length]));
  if (long.size === 0) rmSync(BASELINE, { force: true });
  else writeFileSync(BASELINE, `${JSON.stringify(counts, null, 2)}\n`);
  process.stdout.write(`${long.size ? `${BASELINE}: ${long.size} files` : `no long lines: ${BASELINE} removed`}\n`);
} else {
  /** @type {Record<string, number>} */
  const allowed = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, "utf8")) : {};
  let over = 0;
  for (const [file, lines] of long) {
    const allowance = allowed[file] ?? 0;
    if (lines.length <= allowance) continue;
    over += 1;
    for (const line of lines) process.stderr.write(`${line}\n`);
    if (allowance > 0) process.stderr.write(`${file}: ${lines.length} lines over ${MAX_CHARS}, ${allowance} allowed\n`);
  }
  if (over) {
    process.stderr.write(
      `${over} files with lines over ${MAX_CHARS} characters; wrap them (Biome wraps code, not strings and comments)\n`,
    );
    process.exitCode = 1;
  }
}
