// `pnpm lint`'s line check: Biome wraps code at 120 columns but leaves strings and comments as they are.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const MAX_CHARS = 120;
const CODE = /\.(?:[cm]?js|[cm]?ts)$/;
const ROOT = join(import.meta.dirname, "..");

const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
  .toString("utf8")
  .split("\0")
  .filter((file) => CODE.test(file));
const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(ROOT, file), "utf8");
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    // Code points, as an editor counts columns: "…" and "·" are one each.
    const chars = [...line].length;
    if (chars > MAX_CHARS) problems.push(`${file}:${index + 1}: ${chars} characters, over ${MAX_CHARS}`);
  }
}
for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length) {
  process.stderr.write(
    `${problems.length} lines over ${MAX_CHARS} characters; Biome wraps code, not strings and comments\n`,
  );
  process.exitCode = 1;
}
