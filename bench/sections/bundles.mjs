import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { kb, table } from "../format.mjs";
import { TARGETS } from "../targets.mjs";

/** What each shipped executable weighs and what it is made of (from the esbuild metafile beside it). */
export function bundleSection({ root }) {
  const ceilings = JSON.parse(readFileSync(join(root, "bundle-size.json"), "utf8")).ceilings;
  const rows = [];
  const targets = [];
  for (const entry of readdirSync(join(root, "packages")).sort()) {
    const manifestPath = join(root, "packages", entry, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (!manifest.carryover) continue;
    for (const [name, bin] of Object.entries(manifest.bin ?? {})) {
      const path = join(root, "packages", entry, bin);
      if (!existsSync(path)) {
        rows.push([name, "not built", "", "", "", ""]);
        continue;
      }
      const bytes = statSync(path).size;
      const parts = composition(`${path}.meta.json`);
      const isHook = Boolean(manifest.carryover.hook);
      const met = bytes <= TARGETS.bundleBytes;
      if (isHook) targets.push({ name, bytes, met, ceiling: ceilings[name], parts });
      rows.push([
        name,
        kb(bytes),
        parts ? kb(parts.core) : "?",
        parts ? kb(parts.own) : "?",
        ceilings[name] ? kb(ceilings[name]) : `${kb(TARGETS.bundleBytes)} (default)`,
        isHook ? (met ? "met" : `**missed** by ${kb(bytes - TARGETS.bundleBytes)}`) : "(not a hook)",
      ]);
    }
  }
  const markdown = [
    table(
      [
        "executable",
        "size",
        "core",
        "its own code",
        "ceiling (bundle-size.json)",
        `target ≤ ${kb(TARGETS.bundleBytes)}`,
      ],
      rows,
    ),
    "",
    "core and own code are the minified bytes each part contributes (esbuild metafile; a module in both the fast part",
    "and the deferred source counts twice); the rest is esbuild's module wrappers, the deferred code's loader and the",
    "shebang. `scripts/bundle-size.test.ts` (part of `pnpm test`) fails when an executable grows past its ceiling in",
    "`bundle-size.json`, or past the 30 KB target when it has none; the ceiling is raised only by the commit that",
    "grows the bundle, which says why.",
  ].join("\n");
  return { markdown, targets };
}

/** Metafile inputs are relative to the package: `src/…` is its own, `../core/src/…` core. */
function composition(metaPath) {
  if (!existsSync(metaPath)) return null;
  const meta = JSON.parse(readFileSync(metaPath, "utf8"));
  const output = Object.values(meta.outputs)[0];
  const parts = { core: 0, own: 0, other: 0, largest: [] };
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (input.includes("core/src/")) parts.core += bytesInOutput;
    else if (!input.includes("node_modules")) parts.own += bytesInOutput;
    else parts.other += bytesInOutput;
    parts.largest.push({
      input: input.replace(/^(\.\.\/)+/, "").replace(/^node_modules\/\.pnpm\/[^/]+\/node_modules\//, ""),
      bytes: bytesInOutput,
    });
  }
  parts.largest.sort((a, b) => b.bytes - a.bytes);
  return parts;
}
