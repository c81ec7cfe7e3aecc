import { createRequire, syncBuiltinESMExports } from "node:module";
import { join, sep } from "node:path";
import { afterAll, afterEach } from "vitest";

// The unit project's setup file: a unit test runs in-process and needs no build. One that starts a process or
// reads a package's dist/ fails with what to rename it to, so the rule holds for tests written later too.
const ROOT = join(import.meta.dirname, "..");
const SPAWNS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
const READS = ["readFileSync", "openSync", "statSync", "existsSync", "readdirSync", "copyFileSync"] as const;

interface Guard {
  seen: string[];
}
const KEY = Symbol.for("carryover.unit-guard");
const global = globalThis as { [KEY]?: Guard };

const isBuilt = (path: unknown) =>
  typeof path === "string" &&
  path.startsWith(ROOT + sep) &&
  path.includes(`${sep}dist${sep}`) &&
  !path.includes(`${sep}node_modules${sep}`);

/** Wraps `names` of a built-in module once per worker, noting each call `note` describes. */
function watch(moduleName: string, names: readonly string[], note: (name: string, first: unknown) => string | null) {
  const module = createRequire(import.meta.url)(moduleName) as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const original = module[name]!;
    module[name] = function (this: unknown, ...args: unknown[]) {
      const seen = note(name, args[0]);
      if (seen) global[KEY]?.seen.push(seen);
      return original.apply(this, args);
    };
  }
}

if (global[KEY]) global[KEY].seen = [];
else {
  global[KEY] = { seen: [] };
  watch("node:child_process", SPAWNS, (name, file) => `${name}(${JSON.stringify(String(file))})`);
  watch("node:fs", READS, (name, path) => (isBuilt(path) ? `${name}(${JSON.stringify(path)})` : null));
  syncBuiltinESMExports();
}

function check(): void {
  const guard = global[KEY]!;
  const seen = [...new Set(guard.seen)];
  guard.seen = [];
  if (seen.length === 0) return;
  throw new Error(
    `a unit test runs in-process and needs no build, but this one called ${seen.slice(0, 3).join(", ")}: ` +
      "name its file *.integration.test.ts (AGENTS.md, Conventions)",
  );
}

afterEach(check);
afterAll(check);
