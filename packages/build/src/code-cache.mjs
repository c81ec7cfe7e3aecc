import { createHash } from "node:crypto";
import { transform } from "esbuild";
import { asciiLiteral } from "./ascii-literal.mjs";

// A hook's code is compiled from a string with V8's code cache: every function a run compiled is kept in
// `<claude dir>/carryover/cache/` and the next start deserializes instead of compiling them again (measured
// on Node 20 here: the status line's JavaScript finished 0.5–0.8 ms sooner per start on the main thread,
// for the same CPU over all threads). Without a usable cache
// (the first run, a new Node, CARRYOVER_CODE_CACHE=0) the code is compiled as Node would compile the file,
// and the run writes the cache when it exits.

const CODE_VAR = "__carryoverCode";
/** The wrapper's parameters: Node's module wrapper's, and the deferred source the code may compile later. */
const PARAMS = ["exports", "require", "module", "__filename", "__dirname", "__carryoverDeferredSource"];

/**
 * The loader: finds this build's cache for the running Node, compiles the code with it, and after the run
 * (on `exit`, when every function the run needed is compiled) writes the cache if there was none or V8
 * refused it. V8 checks a cache against its version and flags but not the source's content, hence the
 * content hash in the file name. A cache is only read if this user owns it and nobody else can write it:
 * it is code. Every failure falls back to compiling; the loader never throws for the cache's sake.
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
  const readOwn = () => {
    let fd;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      const stat = fs.fstatSync(fd);
      const uid = process.getuid?.();
      return stat.isFile() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o22) === 0 ? fs.readFileSync(fd) : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  };
  const cached = file ? readOwn() : undefined;
  const script = new Script(${CODE_VAR}, { filename: __filename, cachedData: cached });
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
  script.runInThisContext()(exports, require, module, __filename, __dirname, typeof __carryoverDeferredSource === "string" ? __carryoverDeferredSource : undefined);
})();`;
}

/**
 * The executable's text around `code` (esbuild's CommonJS output, no shebang): the code as a string, the
 * deferred source after it when there is one, and the loader last (the `var`s are assigned by then).
 *
 * @param {{ code: string, deferredVar: string | null, name: string }} parts
 * @returns {Promise<string>}
 */
export async function withCodeCache({ code, deferredVar, name }) {
  const wrapped = `(function (${PARAMS.join(", ")}) {${code}\n})`;
  if (/\bimport\s*\(/.test(code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
    throw new Error(`${name}: a dynamic import() is left in the code; code compiled by vm.Script cannot run it`);
  }
  const hash = createHash("sha256").update(wrapped).digest("hex").slice(0, 16);
  const loader = (await transform(loaderSource(name, hash), { minify: true, target: "node20", format: "cjs", legalComments: "none" })).code;
  return ["#!/usr/bin/env node", '"use strict";', `var ${CODE_VAR} = ${asciiLiteral(wrapped)};`, deferredVar ?? "", loader].filter(Boolean).join("\n");
}
