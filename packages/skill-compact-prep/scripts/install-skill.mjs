#!/usr/bin/env node
// Copies the built skill into a Claude Code skills dir, exactly as package.json's `carryover` field lists it
// (the same field the carryover installer reads):
//   node scripts/install-skill.mjs [--force] [<skills-dir>]     default: ${CLAUDE_CONFIG_DIR:-~/.claude}/skills
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// A SKILL.md without this is someone else's compact-prep: it is never overwritten without --force.
const OWN_MARK = "carryover-state";

/**
 * @param {string} skillsDir a Claude Code skills dir, e.g. ~/.claude/skills
 * @param {{ force?: boolean, packageDir?: string }} [options]
 * @returns {{ dir: string, files: string[] }} the skill's dir and the paths written
 */
export function installSkill(skillsDir, { force = false, packageDir = PACKAGE_DIR } = {}) {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  /** @type {{ skill: string, files: Record<string, string> }} */
  const spec = manifest.carryover;
  const dir = join(resolve(skillsDir), spec.skill);
  const existing = join(dir, "SKILL.md");
  if (!force && existsSync(existing) && !readFileSync(existing, "utf8").includes(OWN_MARK)) {
    throw new Error(`${existing} is not carryover's; move it away or pass --force`);
  }
  for (const source of Object.values(spec.files)) {
    if (!existsSync(join(packageDir, source))) {
      throw new Error(`${source} is missing: build first (pnpm --filter ${manifest.name} build)`);
    }
  }
  mkdirSync(dir, { recursive: true });
  const files = Object.entries(spec.files).map(([target, source]) => {
    const from = join(packageDir, source);
    const to = join(dir, target);
    copyFileSync(from, to);
    chmodSync(to, statSync(from).mode & 0o755);
    return to;
  });
  // Node 20 runs an extensionless file as ESM under a "type": "module" package.json above it;
  // the state CLI is a CommonJS bundle, so the skill dir pins the type (as the installer does).
  const guard = join(dir, "package.json");
  writeFileSync(guard, '{"type":"commonjs"}\n');
  return { dir, files: [...files, guard] };
}

function defaultSkillsDir() {
  const claudeDir = process.env.CLAUDE_CONFIG_DIR || join(process.env.HOME || homedir(), ".claude");
  return join(claudeDir, "skills");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const rest = args.filter((arg) => arg !== "--force");
  try {
    if (rest.length > 1 || rest.some((arg) => arg.startsWith("-")))
      throw new Error("usage: install-skill.mjs [--force] [<skills-dir>]");
    const { dir } = installSkill(rest[0] ?? defaultSkillsDir(), { force });
    console.log(`installed /compact-prep in ${dir}`);
  } catch (error) {
    console.error(`install-skill: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
