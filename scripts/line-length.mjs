// `pnpm lint`'s line check: lines of code at most 120 characters. Biome wraps code at 120 columns but leaves
// strings and comments as they are, so this check reads what Biome cannot fix.
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
let over = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(ROOT, file), "utf8");
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  for (const [index, line] of text.split("\n").entries()) {
    // Code points, as an editor counts columns: "…" and "·" are one each.
    const chars = [...line].length;
    if (chars <= MAX_CHARS) continue;
    over += 1;
    process.stderr.write(`${file}:${index + 1}: ${chars} characters, over ${MAX_CHARS}\n`);
  }
}
if (over) {
  const count = over === 1 ? "1 line" : `${over} lines`;
  process.stderr.write(
    `${count} over ${MAX_CHARS} characters; wrap them (Biome wraps code, not strings and comments)\n`,
  );
  process.exitCode = 1;
}
