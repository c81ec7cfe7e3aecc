import { join } from "node:path";
import { buildExecutable } from "@carryover/build";
import { assembleRelease } from "./scripts/assemble-release.mjs";

// The CLI ships the executables it installs: dist/release is a release dir like scripts/release.mjs makes.
const here = import.meta.dirname;
const cli = await buildExecutable({ entry: "src/bin.ts", outfile: "dist/carryover.cjs", cwd: here });
console.log(`built ${cli.outfile} (${(cli.bytes / 1024).toFixed(1)} KiB)`);
const release = await assembleRelease({ repoRoot: join(here, "../.."), outDir: join(here, "dist/release") });
console.log(`assembled ${release.entries} hooks and skills into ${release.manifestPath}`);
