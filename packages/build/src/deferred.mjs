import { build } from "esbuild";
import { carriedText, carrierFunction } from "./comment-carrier.mjs";

// Deferred code: every dynamic `import()` the entry makes of its own sources is bundled apart and carried
// in the executable in a comment (comment-carrier.mjs), compiled on the first `import()` that needs it. A
// hook's fast path then costs V8 a skip of a comment instead of a pre-parse of code it never runs.

const LOADER = "carryover:deferred";
const NAMESPACE = "carryover-deferred";
const RESOLVING = Symbol("resolving");
/** The function carrying the deferred source. */
const DEFERRED_CARRIER = "__carryoverDeferred";
const PROBE = "carryover-deferred-probe:";
/** The deferred bundle's synthetic entry, which the executable's metafile leaves out. */
export const DEFERRED_ENTRY = "carryover-deferred-entry.js";

/** esbuild's own resolution of an import; `pluginBuild.resolve` runs the plugins again, so ours steps aside. */
function resolveAgain(pluginBuild, args) {
  return pluginBuild.resolve(args.path, {
    kind: args.kind,
    resolveDir: args.resolveDir,
    importer: args.importer,
    pluginData: RESOLVING,
  });
}

/**
 * The absolute paths the entry's code, after tree shaking, imports dynamically (`node:` built-ins and
 * packages excepted: only the project's own sources are worth deferring).
 *
 * @param {import("esbuild").BuildOptions} options
 * @returns {Promise<string[]>}
 */
export async function deferredImports(options) {
  const result = await build({
    ...options,
    write: false,
    metafile: false,
    minify: false,
    plugins: [
      {
        name: "find-deferred",
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^\./ }, async (args) => {
            if (args.kind !== "dynamic-import" || args.pluginData === RESOLVING) return undefined;
            const resolved = await resolveAgain(pluginBuild, args);
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: `${PROBE}${resolved.path}`, external: true };
          });
        },
      },
    ],
  });
  // A module esbuild parsed but shook out (a re-export nobody uses) leaves no import behind.
  const text = result.outputFiles[0].text;
  const found = new Set(
    [...text.matchAll(new RegExp(`"${PROBE}([^"]+)"`, "g"))].map((match) => JSON.parse(`"${match[1]}"`)),
  );
  return [...found].sort();
}

/**
 * Bundles the deferred modules into one CommonJS source whose exports are `d0`, `d1`, … (one per path),
 * so modules they share are carried once.
 *
 * @param {import("esbuild").BuildOptions} options
 * @param {string[]} paths
 * @returns {Promise<{ source: string, metafile: import("esbuild").Metafile }>}
 */
export async function bundleDeferred(options, paths) {
  const contents = paths.map((path, i) => `export * as d${i} from ${JSON.stringify(path)};`).join("\n");
  const result = await build({
    ...options,
    entryPoints: undefined,
    stdin: { contents, resolveDir: options.absWorkingDir, sourcefile: DEFERRED_ENTRY, loader: "js" },
    banner: undefined,
    outfile: undefined,
    write: false,
    metafile: true,
  });
  return { source: result.outputFiles[0].text, metafile: result.metafile };
}

/**
 * Where the deferred source goes: a function declaration at the end of the executable (hoisted, so there
 * before any `import()`).
 *
 * @param {string} source
 * @param {string} name the executable's name, for stack traces
 * @returns {string}
 */
export function deferredFooter(source, name) {
  return carrierFunction(DEFERRED_CARRIER, `${source}\n//# sourceURL=${name}-deferred.js`);
}

/**
 * The plugin that routes the entry's dynamic imports of `paths` to the deferred source: compiled once, on
 * the first of them, with the executable's own `require` (only Node built-ins are required).
 *
 * @param {string[]} paths
 * @returns {import("esbuild").Plugin}
 */
export function deferredPlugin(paths) {
  const loader = [
    "let loaded;",
    "module.exports = () => {",
    "  if (!loaded) {",
    "    const deferred = { exports: {} };",
    `    new Function("module", "exports", "require", ${carriedText(DEFERRED_CARRIER)})` +
      "(deferred, deferred.exports, require);",
    "    loaded = deferred.exports;",
    "  }",
    "  return loaded;",
    "};",
  ].join("\n");
  return {
    name: "deferred",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === RESOLVING) return undefined;
        const resolved = await resolveAgain(pluginBuild, args);
        const index = paths.indexOf(resolved.path);
        // One that tree shaking removes still brings its module graph in, and esbuild then wraps the modules
        // it shares with the entry in lazy initialisers that every start pays for.
        return index === -1 ? { path: "unused", namespace: NAMESPACE } : { path: String(index), namespace: NAMESPACE };
      });
      pluginBuild.onResolve({ filter: new RegExp(`^${LOADER}$`) }, () => ({ path: "loader", namespace: NAMESPACE }));
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        if (args.path === "loader") return { contents: loader, loader: "js" };
        if (args.path === "unused") return { contents: "export {};", loader: "js" };
        return { contents: `module.exports = require(${JSON.stringify(LOADER)})().d${args.path};`, loader: "js" };
      });
    },
  };
}
