import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let cached: string | undefined;

/**
 * Path of the real Claude Code executable: `$CARRYOVER_CLAUDE_BIN` when set, else the native binary of the
 * root devDependency `@anthropic-ai/claude-code` (called directly, skipping the node_modules/.bin shell shim).
 */
export function claudeBin(): string {
  if (cached !== undefined) return cached;
  const override = process.env.CARRYOVER_CLAUDE_BIN;
  if (override) {
    cached = override;
    return override;
  }
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@anthropic-ai/claude-code/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const relative = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.claude;
  const bin = relative === undefined ? undefined : join(dirname(manifestPath), relative);
  if (bin === undefined || !existsSync(bin)) {
    throw new Error(`claude binary not found beside ${manifestPath}: run \`pnpm install\` at the repo root`);
  }
  cached = bin;
  return bin;
}
