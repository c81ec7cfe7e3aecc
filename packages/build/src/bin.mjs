#!/usr/bin/env node
import { buildExecutable } from "./index.mjs";

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error("usage: carryover-build <entry.ts> <outfile.cjs> [<entry> <outfile> …]");
  process.exit(2);
}
try {
  for (let i = 0; i < pairs.length; i += 2) {
    const { outfile, bytes } = await buildExecutable({ entry: pairs[i], outfile: pairs[i + 1] });
    console.log(`built ${outfile} (${(bytes / 1024).toFixed(1)} KiB)`);
  }
} catch (error) {
  console.error(`carryover-build: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
