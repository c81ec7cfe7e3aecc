import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { buildExecutable } from "../packages/build/src/index.mjs";

/**
 * Bundles what the bench needs from TypeScript into bench/.cache: the kit (case files, core for their
 * setups, the transcript generator) as one ESM module, and the scanner as a hook-like executable.
 */
export async function buildKit(benchDir) {
  const cacheDir = join(benchDir, ".cache");
  const caseFiles = readdirSync(join(benchDir, "cases"))
    .filter((file) => file.endsWith(".ts") && file !== "types.ts")
    .sort();
  const imports = caseFiles.map((file, i) => `import { cases as c${i} } from "./cases/${file}";`);
  const contents = [
    ...imports,
    'export { generateTranscript, logPath, prepareContext, statusLineCommand } from "./kit.ts";',
    `export const hookCases = [${caseFiles.map((_, i) => `c${i}`).join(", ")}];`,
  ].join("\n");
  const kitPath = join(cacheDir, "kit.mjs");
  await build({
    stdin: { contents, resolveDir: benchDir, loader: "ts", sourcefile: "bench-kit.ts" },
    outfile: kitPath,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    logLevel: "warning",
  });
  const scanner = await buildExecutable({
    entry: join(benchDir, "scan/carryover-scan.ts"),
    outfile: join(cacheDir, "carryover-scan.cjs"),
  });
  if (!existsSync(scanner.outfile)) throw new Error(`the scanner was not built at ${scanner.outfile}`);
  return { kit: await import(`${kitPath}?${Date.now()}`), scannerPath: scanner.outfile };
}
