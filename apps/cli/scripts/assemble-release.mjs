import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { buildExecutable } from "@carryover/build";

const MANIFEST_VERSION = 1;

/**
 * A release dir: `manifest.json`, every executable in `bin/`, every skill in `skills/<name>/`.
 * Packages are discovered, not listed: any `packages/*` whose package.json has a `carryover` field
 * is in, so a new hook ships without a change here.
 *
 * Each executable is built from its package's own `build` script pairs (`carryover-build <entry> <out>`)
 * into the release dir, not copied from the package's dist: turbo may be writing that dist right now.
 *
 * @param {{ repoRoot: string, outDir: string }} options
 * @returns {Promise<{ manifestPath: string, entries: number }>}
 */
export async function assembleRelease({ repoRoot, outDir }) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "bin"), { recursive: true });
  const entries = [];
  for (const pkgDir of carryoverPackages(repoRoot)) entries.push(await assemblePackage(pkgDir, outDir));
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const manifest = { manifestVersion: MANIFEST_VERSION, entries };
  const manifestPath = join(outDir, "manifest.json");
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifestPath, entries: entries.length };
}

/** Dirs of `packages/*` whose package.json carries a `carryover` field. */
export function carryoverPackages(repoRoot) {
  const packagesDir = join(repoRoot, "packages");
  return readdirSync(packagesDir)
    .map((name) => join(packagesDir, name))
    .filter((dir) => existsSync(join(dir, "package.json")) && readPackage(dir).carryover !== undefined)
    .sort();
}

/** A package dir's package.json, parsed. */
export function readPackage(dir) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

async function assemblePackage(pkgDir, outDir) {
  const pkg = readPackage(pkgDir);
  const field = pkg.carryover;
  const where = relative(process.cwd(), join(pkgDir, "package.json"));
  if (typeof field.hook !== "string" && typeof field.skill !== "string")
    throw new Error(`${where}: carryover field needs "hook" or "skill"`);
  const name = field.hook ?? field.skill;
  checkName(name, where);
  const skillDir = field.skill ? join(outDir, "skills", name) : null;
  const skillTargets = new Map(Object.entries(field.files ?? {}).map(([target, source]) => [normal(source), target]));
  const executables = [];
  const built = new Set();
  for (const { entry, outfile } of buildPairs(pkg, where)) {
    const bin = binName(pkg, outfile, where);
    // A skill's executables live in its own dir: SKILL.md runs them as ${CLAUDE_SKILL_DIR}/<name>.
    const target = skillDir ? skillTargets.get(normal(outfile)) : basename(outfile);
    if (target === undefined) throw new Error(`${where}: ${outfile} is built but "carryover.files" does not list it`);
    const releaseFile = join(skillDir ?? join(outDir, "bin"), target);
    await buildExecutable({ entry, outfile: releaseFile, cwd: pkgDir });
    rmSync(`${releaseFile}.meta.json`, { force: true });
    built.add(normal(outfile));
    if (!skillDir) executables.push({ name: bin, file: `bin/${target}`, sha256: sha256File(releaseFile) });
  }
  const registrations = (field.registrations ?? []).map((registration) => checkRegistration(registration, where));
  if (field.statusLine === true) registrations.push({ event: "statusLine" });
  const skills = skillDir ? [copySkill(pkgDir, name, field.files ?? {}, built, skillDir, where)] : [];
  return {
    name,
    kind: field.hook ? "hook" : "skill",
    package: pkg.name,
    version: pkg.version,
    description: pkg.description ?? "",
    recommended: field.recommended === true,
    events: [...new Set(registrations.map((registration) => registration.event))],
    registrations,
    executables,
    skills,
  };
}

function normal(path) {
  return path.replace(/^\.\//, "");
}

function checkName(name, where) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new Error(`${where}: carryover name ${JSON.stringify(name)} must be lowercase letters, digits and dashes`);
}

/** `carryover-build src/bin.ts dist/x.cjs [src/other.ts dist/y.cjs]` → [{ entry, outfile }]. */
export function buildPairs(pkg, where) {
  const script = pkg.scripts?.build ?? "";
  const words = script.trim().split(/\s+/);
  if (words[0] !== "carryover-build") return [];
  const args = words.slice(1);
  if (args.length % 2 !== 0 || args.some((arg) => /[&|;<>$`]/.test(arg))) {
    throw new Error(
      `${where}: scripts.build must be "carryover-build <entry> <outfile> …", got ${JSON.stringify(script)}`,
    );
  }
  const pairs = [];
  for (let i = 0; i < args.length; i += 2) pairs.push({ entry: args[i], outfile: args[i + 1] });
  return pairs;
}

function binName(pkg, outfile, where) {
  const bins = typeof pkg.bin === "string" ? { [pkg.name.replace(/^@[^/]+\//, "")]: pkg.bin } : (pkg.bin ?? {});
  const found = Object.entries(bins).find(([, path]) => normal(path) === normal(outfile));
  if (!found) throw new Error(`${where}: ${outfile} is built but no "bin" entry points at it`);
  return found[0];
}

function checkRegistration(registration, where) {
  const { event, matcher, if: condition, timeout } = registration;
  if (typeof event !== "string" || !/^[A-Za-z]+$/.test(event))
    throw new Error(`${where}: registration without a valid "event"`);
  if (matcher !== undefined && typeof matcher !== "string")
    throw new Error(`${where}: ${event} matcher must be a string`);
  if (condition !== undefined && (typeof condition !== "string" || condition === ""))
    throw new Error(`${where}: ${event} "if" must be a permission rule such as "Write(//**/MEMORY.md)"`);
  if (event !== "statusLine" && !(Number.isInteger(timeout) && timeout > 0))
    throw new Error(`${where}: ${event} needs an explicit "timeout" in seconds`);
  return {
    event,
    ...(matcher !== undefined ? { matcher } : {}),
    ...(condition !== undefined ? { if: condition } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  };
}

/**
 * A skill's files (`carryover.files`: name in the skill dir → source in the package) in `skills/<name>/`.
 * With an executable among them, a `{"type":"commonjs"}` package.json joins them: Node 20 runs an
 * extensionless file as ESM under a "type":"module" package.json, which a project's skills dir often has above it.
 */
function copySkill(pkgDir, name, files, built, skillDir, where) {
  if (!files["SKILL.md"]) throw new Error(`${where}: "carryover.files" must name SKILL.md`);
  mkdirSync(skillDir, { recursive: true });
  for (const [target, source] of Object.entries(files)) {
    if (built.has(normal(source))) continue;
    if (!existsSync(join(pkgDir, source))) throw new Error(`${where}: ${source} not found`);
    cpSync(join(pkgDir, source), join(skillDir, target));
  }
  const hasExecutable = listFiles(skillDir).some((path) => (statSync(path).mode & 0o111) !== 0);
  if (hasExecutable && !files["package.json"]) writeFileSync(join(skillDir, "package.json"), COMMONJS_GUARD);
  const entries = listFiles(skillDir).map((path) => ({
    path: relative(skillDir, path),
    sha256: sha256File(path),
    mode: (statSync(path).mode & 0o111) !== 0 ? 0o755 : 0o644,
  }));
  return { name, dir: `skills/${name}`, files: entries };
}

const COMMONJS_GUARD = `{"type":"commonjs"}\n`;

function listFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

function sha256File(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}
