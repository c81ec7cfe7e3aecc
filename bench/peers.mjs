import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Status lines people already run, pinned. `script` is what their installers register: GSD's installer
 * writes `"<node>" "<config dir>/hooks/gsd-statusline.js"`, a copy of the package's hooks/dist file;
 * ccstatusline's README registers `npx -y ccstatusline@latest`, i.e. node running its dist file after
 * npx's own start-up, which is left out here (it would also need the registry on every render).
 */
const PEERS = [
  { name: "GSD statusline", pkg: "get-shit-done-cc", version: "1.42.3", script: "hooks/dist/gsd-statusline.js" },
  { name: "ccstatusline", pkg: "ccstatusline", version: "2.2.30", script: "dist/ccstatusline.js" },
];

/** Installs the pinned peers into bench/.peers (gitignored) unless they are there already; returns their scripts. */
export function ensurePeers(benchDir, log) {
  const dir = join(benchDir, ".peers");
  const installed = (peer) => {
    const manifest = join(dir, "node_modules", peer.pkg, "package.json");
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === peer.version;
  };
  if (!PEERS.every(installed)) {
    mkdirSync(dir, { recursive: true });
    const dependencies = Object.fromEntries(PEERS.map((peer) => [peer.pkg, peer.version]));
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, dependencies }, null, 2)}\n`);
    log(`installing ${PEERS.map((peer) => `${peer.pkg}@${peer.version}`).join(", ")} into ${dir} (npm)`);
    const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: dir,
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (result.status !== 0)
      throw new Error(`npm install of the statusline peers failed (exit ${result.status}) in ${dir}`);
  }
  return PEERS.map((peer) => ({ ...peer, path: join(dir, "node_modules", peer.pkg, peer.script) }));
}
