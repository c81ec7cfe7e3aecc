import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseSync } from "oxc-parser";

// V8 compiles a function lazily, on its first call, unless it is a function expression in parentheses (its
// PIFE heuristic): then at load, with the script. Node's compile cache (NODE_COMPILE_CACHE) stores what
// was compiled by then, so only the eager functions come back compiled from a warm cache; a lazy one is
// parsed and compiled again by every process. Making every function eager would compile, and cache, what a
// run never calls: only the functions that sample runs of the executable called are rewritten.

/**
 * The start offsets (in the executable's source) of the functions that runs of it called: `node <file>`
 * with each of `stdinFiles` on stdin in turn, in one fresh home, so a run sees what the ones before left.
 *
 * @param {string} file the executable
 * @param {string[]} stdinFiles
 * @returns {Set<number>}
 */
export function calledFunctions(file, stdinFiles) {
  const home = mkdtempSync(join(tmpdir(), "carryover-eager-"));
  try {
    const coverageDir = join(home, "coverage");
    const url = pathToFileURL(file).href;
    const called = new Set();
    for (const stdinFile of stdinFiles) {
      const run = spawnSync(process.execPath, [file], {
        input: readFileSync(stdinFile),
        cwd: home,
        env: { PATH: process.env.PATH, HOME: home, TMPDIR: home, NODE_V8_COVERAGE: coverageDir },
        encoding: "utf8",
      });
      if (run.status !== 0 || run.stderr !== "")
        throw new Error(`${file} < ${stdinFile}: exit ${run.status ?? run.signal}, ${run.stderr.trim()}`);
      for (const name of readdirSync(coverageDir)) {
        for (const script of JSON.parse(readFileSync(join(coverageDir, name), "utf8")).result) {
          if (script.url !== url) continue;
          for (const { ranges } of script.functions) if (ranges[0].count > 0) called.add(ranges[0].startOffset);
        }
      }
      rmSync(coverageDir, { recursive: true });
    }
    if (called.size === 0) throw new Error(`${file}: no run called any of its functions`);
    return called;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * `source` with its chosen functions made eager: a function declaration becomes `var f=(function f(){…});`
 * at the top of its scope (where the declaration's hoisting put it), a function expression is put in
 * parentheses (async ones too: V8 looks past `async`). Left as they are: arrow functions (the heuristic
 * does not cover them), declarations in blocks (hoisted by other rules), a function whose name is assigned
 * anywhere (a declaration's name is a variable; a named expression's own name is a constant inside it),
 * methods.
 *
 * @param {string} source a script (CommonJS)
 * @param {(start: number) => boolean} chosen by start offset
 * @returns {{ source: string, functions: number }}
 */
export function eagerFunctions(source, chosen) {
  const { program, errors } = parseSync("executable.cjs", source, { sourceType: "script" });
  if (errors.length > 0) throw new Error(`cannot parse the executable: ${errors[0].message}`);
  const assigned = assignedNames(program);
  let functions = 0;
  const eligible = (fn) => chosen(fn.start);

  function rewrite(node, parent) {
    if (node.type === "FunctionExpression" && eligible(node) && !isMethod(parent)) {
      functions++;
      return parent.type === "ParenthesizedExpression" ? splice(node) : `(${splice(node)})`;
    }
    if (node.type === "Program" || (node.type === "BlockStatement" && isFunction(parent) && parent.body === node))
      return scope(node, node.body);
    return splice(node);
  }

  /** The node's source with its children rewritten. */
  function splice(node, from = node.start, skip = new Set()) {
    let out = "";
    let pos = from;
    for (const child of children(node)) {
      if (child.start < pos) continue;
      out += source.slice(pos, child.start);
      if (!skip.has(child)) out += rewrite(child, node);
      pos = child.end;
    }
    return out + source.slice(pos, node.end);
  }

  /** A function body or the program: its chosen declarations move to its top, after the directives. */
  function scope(node, statements) {
    const hoisted = statements.filter(
      (s) => s.type === "FunctionDeclaration" && s.id && eligible(s) && !assigned.has(s.id.name),
    );
    if (hoisted.length === 0) return splice(node);
    functions += hoisted.length;
    const head = hoisted.map((s) => `var ${s.id.name}=(${splice(s)});`).join("");
    const directives = statements.filter((s) => s.type === "ExpressionStatement" && s.directive !== undefined);
    const at = directives.length > 0 ? directives.at(-1).end : statements[0].start;
    return source.slice(node.start, at) + head + splice(node, at, new Set(hoisted));
  }

  return { source: rewrite(program, null), functions };
}

function isFunction(node) {
  return node?.type === "FunctionDeclaration" || node?.type === "FunctionExpression";
}

function isMethod(parent) {
  return (
    parent?.type === "MethodDefinition" ||
    parent?.type === "TSAbstractMethodDefinition" ||
    (parent?.type === "Property" && (parent.method || parent.kind !== "init"))
  );
}

function isNode(value) {
  return value !== null && typeof value === "object" && typeof value.type === "string" && "start" in value;
}

function children(node) {
  const out = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Every identifier assigned to or updated anywhere, whatever its scope. */
function assignedNames(program) {
  const names = new Set();
  const visit = (node) => {
    if (node.type === "AssignmentExpression" || node.type === "UpdateExpression") {
      const target = node.type === "AssignmentExpression" ? node.left : node.argument;
      collectTargets(target, names);
    }
    for (const child of children(node)) visit(child);
  };
  visit(program);
  return names;
}

function collectTargets(target, names) {
  if (!target) return;
  if (target.type === "Identifier") names.add(target.name);
  else if (target.type === "ArrayPattern") for (const element of target.elements) collectTargets(element, names);
  else if (target.type === "ObjectPattern")
    for (const property of target.properties) collectTargets(property.value ?? property.argument, names);
  else if (target.type === "AssignmentPattern") collectTargets(target.left, names);
  else if (target.type === "RestElement") collectTargets(target.argument, names);
}
