import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildExecutable } from "@carryover/build";

/**
 * Bundles `test/<name>.ts` the way every hook is shipped (one executable CJS file), into a fresh temp dir,
 * so tests can run core's real code in separate processes. Returns the file; its dir is the caller's to remove.
 */
export async function bundleTestEntry(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `carryover-core-${name}-`));
  const { outfile } = await buildExecutable({
    entry: join(import.meta.dirname, `${name}.ts`),
    outfile: join(dir, `${name}.cjs`),
  });
  return outfile;
}
