import { join } from "node:path";
import { buildCli } from "./scripts/build-cli.mjs";

// The CLI ships the executables it installs: dist/release is a release dir like scripts/release.mjs makes.
const here = import.meta.dirname;
const { cli, release } = await buildCli({ repoRoot: join(here, "../.."), outDir: join(here, "dist") });
console.log(`built ${cli.outfile} (${(cli.bytes / 1024).toFixed(1)} KiB)`);
console.log(`assembled ${release.entries} hooks and skills into ${release.manifestPath}`);
