import { createHash } from "node:crypto";
import { transform } from "esbuild";
import { carriedText, carrierFunction } from "./comment-carrier.mjs";
import { DEFERRED_CARRIER } from "./deferred.mjs";

// A hook's code is compiled from its text with V8's code cache: every function a run compiled is kept in
// `<claude dir>/carryover/cache/` and the next start deserializes instead of compiling them again (measured
// on Node 20 here: the status line's JavaScript finished 0.5–0.8 ms sooner per start on the main thread,
// for the same CPU over all threads). Without a usable cache
// (the first run, a new Node, CARRYOVER_CODE_CACHE=0) the code is compiled as Node would compile the file,
// and the run writes the cache when it exits.

const CODE_CARRIER = "__carryoverCode";
/** The wrapper's parameters: Node's module wrapper's, and the carrier of the deferred source the code may compile later. */
const PARAMS = ["exports", "require", "module", "__filename", "__dirname", DEFERRED_CARRIER];

/**
 * The loader: finds this build's cache for the running Node, compiles the code with it, and after the run
 * (on `exit`, when every function the run needed is compiled) writes the cache if there was none or V8
 * refused it. V8 checks a cache against its version and flags but not the source's content, hence the
 * content hash in the file name. A cache is code, read without an fstat (~0.3 ms) or an owner check: its
 * dir is made 0700 inside carryover's own, beside the installed executables, which whoever could write
 * there could replace as well. O_NOFOLLOW refuses a symlink, O_NONBLOCK reads a FIFO as empty. Every
 * failure falls back to compiling; the loader never throws for the cache's sake.
 */
function loaderSource(name, hash) {
  return `(() => {
  const fs = require("node:fs");
  const path = require("node:path");
  const { Script } = require("node:vm");
  const env = process.env;
  const root = env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : env.HOME ? path.join(env.HOME, ".claude") : null;
  const dir = root && env.CARRYOVER_CODE_CACHE !== "0" ? path.join(root, "carryover", "cache") : null;
  const prefix = ${JSON.stringify(`${name}-`)};
  const file = dir && path.join(dir, prefix + ${JSON.stringify(hash)} + "-" + process.version + "-" + process.arch + ".v8");
  const read = () => {
    try {
      return fs.readFileSync(file, { flag: fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK });
    } catch {
      return undefined;
    }
  };
  const cached = file ? read() : undefined;
  const script = new Script(${carriedText(CODE_CARRIER)}, { filename: __filename, cachedData: cached });
  if (file && (!cached || script.cachedDataRejected)) {
    process.once("exit", () => {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const temp = file + "." + process.pid + ".tmp";
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        fs.renameSync(temp, file);
        for (const other of fs.readdirSync(dir)) if (other.startsWith(prefix) && other !== path.basename(file)) fs.unlinkSync(path.join(dir, other));
      } catch {}
    });
  }
  script.runInThisContext()(exports, require, module, __filename, __dirname, typeof ${DEFERRED_CARRIER} === "function" ? ${DEFERRED_CARRIER} : undefined);
})();`;
}

/**
 * The executable's text around `code` (esbuild's CommonJS output, no shebang): the loader, then the
 * functions carrying the code and the deferred source (hoisted: there when the loader runs).
 *
 * @param {{ code: string, deferredCarrier: string | null, name: string }} parts
 * @returns {Promise<string>}
 */
export async function withCodeCache({ code, deferredCarrier, name }) {
  const wrapped = `(function (${PARAMS.join(", ")}) {${code}\n})`;
  if (/\bimport\s*\(/.test(code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
    throw new Error(`${name}: a dynamic import() is left in the code; code compiled by vm.Script cannot run it`);
  }
  const hash = createHash("sha256").update(wrapped).digest("hex").slice(0, 16);
  const loader = (await transform(loaderSource(name, hash), { minify: true, target: "node20", format: "cjs", legalComments: "none" })).code;
  return ["#!/usr/bin/env node", '"use strict";', loader, carrierFunction(CODE_CARRIER, wrapped), deferredCarrier ?? ""].filter(Boolean).join("\n");
}
