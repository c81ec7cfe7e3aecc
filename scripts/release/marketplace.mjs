// `.claude-plugin/marketplace.json` at the repository's root, generated from the packages, so that
// `claude plugin marketplace add <owner>/<repo>` offers every hook and the skill as a plugin whose source is its npm
// package: Claude Code 2.1.332 fetches it with `npm view` and `npm pack` from the user's npm registry and
// unpacks it as the plugin's root. The entries carry the plugin manifest (`strict: false`), so a package stays
// its executable, package.json and README.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { carryoverPackages } from "../../apps/cli/scripts/assemble-release.mjs";
import { readPackage } from "./packages.mjs";

export const MARKETPLACE_FILE = ".claude-plugin/marketplace.json";
const MARKETPLACE_NAME = "carryover";
const STATUS_LINE_NOTE = (name) =>
  `Plugins cannot set Claude Code's status line: install it with \`npx carryover install ${name}\`.`;

/** The marketplace, as an object. */
export function marketplace(repoRoot) {
  const plugins = carryoverPackages(repoRoot)
    .map((dir) => readPackage(dir))
    .filter((pkg) => pkg.private !== true)
    .map((pkg) => plugin(pkg))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    name: MARKETPLACE_NAME,
    owner: { name: "carryover" },
    metadata: {
      description: "Claude Code hooks that keep long coding sessions coherent across context compaction",
    },
    plugins,
  };
}

/** The file's text: what `write` puts there and `check` expects. */
function marketplaceText(repoRoot) {
  return `${JSON.stringify(marketplace(repoRoot), null, 2)}\n`;
}

export function writeMarketplace(repoRoot) {
  const path = join(repoRoot, MARKETPLACE_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, marketplaceText(repoRoot));
  return path;
}

/** Why the committed file is not the generated one, or null when it is. */
export function marketplaceDrift(repoRoot) {
  const path = join(repoRoot, MARKETPLACE_FILE);
  if (!existsSync(path)) return `${MARKETPLACE_FILE} is missing: run node scripts/release.mjs marketplace`;
  if (readFileSync(path, "utf8") !== marketplaceText(repoRoot)) {
    return `${MARKETPLACE_FILE} does not match the packages: run node scripts/release.mjs marketplace, commit it`;
  }
  return null;
}

/** @param {import("./packages.mjs").PackageJson} pkg */
function plugin(pkg) {
  const field = /** @type {NonNullable<typeof pkg.carryover>} */ (pkg.carryover);
  const name = field.hook ?? field.skill;
  const entry = {
    name,
    description: field.statusLine ? `${pkg.description}. ${STATUS_LINE_NOTE(name)}` : pkg.description,
    version: pkg.version,
    source: { source: "npm", package: pkg.name, version: pkg.version },
    strict: false,
  };
  if (field.skill) return { ...entry, skills: [`./${skillDir(pkg)}`] };
  const registrations = field.registrations ?? [];
  return registrations.length > 0 ? { ...entry, hooks: hooks(pkg, registrations) } : entry;
}

/**
 * Each registration in exec form, as the installer writes it in settings.json: `/bin/sh <executable> <event>`,
 * the executable at its path inside the package (Claude Code 2.1.332 expands ${CLAUDE_PLUGIN_ROOT} in `args`).
 */
function hooks(pkg, registrations) {
  const bins = Object.values(pkg.bin ?? {});
  if (bins.length !== 1) throw new Error(`${pkg.name}: a hook has exactly one "bin", found ${bins.length}`);
  const file = posix.normalize(bins[0]);
  const byEvent = {};
  for (const { event, matcher, if: condition, timeout } of registrations) {
    const args = [`\${CLAUDE_PLUGIN_ROOT}/${file}`, event];
    const handler = { type: "command", command: "/bin/sh", args, ...(condition ? { if: condition } : {}), timeout };
    byEvent[event] = [...(byEvent[event] ?? []), { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] }];
  }
  return byEvent;
}

/**
 * The dir of the package that holds the skill as Claude Code loads it: SKILL.md and every file beside it that
 * the installer puts there (`carryover.files`), so `${CLAUDE_SKILL_DIR}/<file>` works in a plugin too.
 */
function skillDir(pkg) {
  const files = pkg.carryover?.files ?? {};
  if (!files["SKILL.md"]) throw new Error(`${pkg.name}: "carryover.files" must name SKILL.md`);
  const dir = posix.dirname(posix.normalize(files["SKILL.md"]));
  const shipped = new Set((pkg.files ?? []).map((file) => posix.normalize(file)));
  for (const target of Object.keys(files)) {
    const path = posix.join(dir, target);
    if (!shipped.has(path)) throw new Error(`${pkg.name}: the skill plugin needs ${path}: list it in "files"`);
  }
  return dir;
}
