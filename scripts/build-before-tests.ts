import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/**
 * Global setup of the projects that run built files: turbo builds what changed (nothing, under `pnpm test`,
 * which built first), so such a test never runs a stale or missing dist/.
 */
export default function buildBeforeTests(): void {
  const turbo = join(ROOT, "node_modules", ".bin", "turbo");
  const result = spawnSync(turbo, ["run", "build", "--output-logs=errors-only"], { cwd: ROOT, encoding: "utf8" });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  const how = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
  throw new Error(`pnpm build failed (${how}): the tests that run built files cannot run`);
}
