// A verdaccio npm registry for the registry e2e test (test/registry.ts starts it), on 127.0.0.1 and a port the
// kernel picks, printed as `listening <port>`.
// It has no uplinks: it serves only what the test publishes, and never asks the public registry for anything.
// It stops when its parent closes stdin, so it cannot outlive the test.
//   node scripts/registry-server.mjs <storage-dir>
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let runServer;
try {
  ({ runServer } = (await import("verdaccio")).default);
} catch (error) {
  // A fresh clone's `pnpm install` brings it (apps/cli's devDependency): without it the test fails, it never skips.
  process.stderr.write(`verdaccio is not installed (${error.code ?? error.message}): run pnpm install\n`);
  process.exit(1);
}

const storage = process.argv[2];
if (!storage) throw new Error("usage: node scripts/registry-server.mjs <storage-dir>");
mkdirSync(storage, { recursive: true });
const configPath = join(storage, "..", "verdaccio.yaml");
writeFileSync(
  configPath,
  [
    `storage: ${JSON.stringify(storage)}`,
    `auth: { htpasswd: { file: ${JSON.stringify(join(storage, "..", "htpasswd"))}, max_users: -1 } }`,
    "uplinks: {}",
    "packages: { '**': { access: $all, publish: $all, unpublish: $all } }",
    "web: { enable: false }",
    "log: { type: stdout, format: json, level: error }",
    "",
  ].join("\n"),
);
const server = await runServer(configPath);
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
