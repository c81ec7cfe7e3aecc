// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are sh, whose ${…} is its own
// A hook's executable is at once a POSIX sh script and its JavaScript bundle. Registered as `/bin/sh <file>
// <event>`, sh runs the prelude: the hook's own "nothing to do" probe for that event, decided from files before
// Node starts, then Node without the variables that break or slow it, found where the installer recorded it,
// else on PATH. `node <file>` (Windows, older registrations) skips all of it: to JavaScript each prelude line is
// a string and a comment.

const PREFIX = '":" //; ';

/** carryover's root in sh, unchecked: with neither variable set, a dir that does not exist, not a relative one. */
const ROOT = "${CLAUDE_CONFIG_DIR:-${HOME:-/nonexistent}/.claude}/carryover";

// A probe may read (set, absolute and checked, only when the probe runs): `$carryover`, carryover's root
// (`<claude dir>/carryover`: `CLAUDE_CONFIG_DIR`, else `$HOME/.claude`); `$session`, the session's dir
// (`$carryover/sessions/<CLAUDE_CODE_SESSION_ID>`, the id checked as core checks it); `$project`,
// `CLAUDE_PROJECT_DIR`. It exits 0 for nothing to do and falls through otherwise; it must leave `$@` alone.
// A run, for an event with a probe, is sh that handles the event itself where it can (and exits 0), read with the
// same variables once its probe fell through. It stands in a block of its own, after the probes': sh parses a whole
// block before it runs any of it, and a fast path should not pay for parsing the run.

/**
 * The sh lines a probe runs under: nothing odd in the environment (else Node decides), the variables set.
 * A path Node would normalise differently (`..`, `.`) is odd: sh hands it to the kernel as it is.
 */
const PROBE_GUARD = [
  "c=${CLAUDE_CONFIG_DIR:-${HOME:+$HOME/.claude}}; sid=${CLAUDE_CODE_SESSION_ID-}; project=${CLAUDE_PROJECT_DIR-}",
  "case $c in /*) ;; *) c= ;; esac",
  "case /$c/$project/ in */./*|*/../*) c= ;; esac",
  "case $project in /*) ;; *) c= ;; esac",
  "case $sid in [A-Za-z0-9]*) ;; *) c= ;; esac",
  "case $sid in *[!A-Za-z0-9_-]*) c= ;; esac",
  '[ "${#sid}" -le 128 ] || c=',
];

/**
 * A hook's prelude.
 *
 * @param {{ hook: string, statusLine: boolean, probes: Record<string, string>, runs?: Record<string, string>,
 *   render?: string }}
 *   options `probes`: per event, sh that exits 0 when there is nothing to do (and falls through otherwise), reading
 *   the variables above; `runs`: per event with a probe, sh that does the work and exits 0 when it can; `render`, a
 *   status line's: sh that renders and exits 0 when it can, reading the same variables, else falls through; if it
 *   read stdin to decide, it leaves what it read in `$carryover_stdin`, which Node then gets on its stdin
 * @returns {string} the lines, the shebang first, each ending in a newline
 */
export function prelude({ hook, statusLine, probes, runs = {}, render }) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(hook))
    throw new Error(`hook name ${JSON.stringify(hook)}: lowercase letters, digits and -`);
  const lines = [];
  if (!statusLine) {
    // The switches as core reads them, in the spellings sh can match; any other goes on to Node, which knows them all.
    lines.push(
      "case ${CARRYOVER-} in 0|false|off|no|FALSE|OFF|NO|False|Off|No) exit 0;; esac",
      `case ,\${CARRYOVER_DISABLE-}, in *,all,*|*,${hook},*|*,hook-${hook},*) exit 0;; esac`,
    );
  }
  const events = Object.entries(probes);
  if (events.length > 0) {
    // CARRYOVER_DEBUG: Node decides, and traces why.
    lines.push(
      'if [ -z "${CARRYOVER_DEBUG-}" ]; then',
      ...PROBE_GUARD.map((line) => `  ${line}`),
      '  if [ -n "$c" ]; then',
    );
    lines.push("    carryover=$c/carryover; session=$carryover/sessions/$sid");
    // Not `case`: a prefixed line cannot start a case pattern.
    for (const [event, probe] of events) {
      if (!/^[A-Za-z]+$/.test(event))
        throw new Error(`${hook}: probe event ${JSON.stringify(event)} is not an event name`);
      lines.push(
        `    if [ "\${1-}" = ${event} ]; then`,
        ...probeLines(hook, event, probe).map((line) => `      ${line}`),
        "    fi",
      );
    }
    lines.push("  fi", "fi");
  }
  for (const [event, run] of Object.entries(runs)) {
    if (!(event in probes)) throw new Error(`${hook}: a run for ${event}, which has no probe`);
    // `$c` is the guard's (set whenever CARRYOVER_DEBUG is empty), not the environment's.
    lines.push(
      `if [ -z "\${CARRYOVER_DEBUG-}" ] && [ -n "$c" ] && [ "\${1-}" = ${event} ]; then`,
      ...probeLines(hook, event, run).map((line) => `  ${line}`),
      "fi",
    );
  }
  if (render !== undefined) {
    if (!statusLine) throw new Error(`${hook}: a render in sh is a status line's`);
    lines.push(
      'if [ -z "${CARRYOVER_DEBUG-}" ]; then',
      ...PROBE_GUARD.map((line) => `  ${line}`),
      '  if [ -n "$c" ]; then',
      "    carryover=$c/carryover; session=$carryover/sessions/$sid",
      ...probeLines(hook, "render", render).map((line) => `    ${line}`),
      "  fi",
      "fi",
    );
  }
  // `$r`, carryover's root: where the status line's compile cache and the no-node log line go.
  lines.push(`r=${ROOT}`);
  if (statusLine) {
    // Handed back to the user's chained status line command by the statusline's JavaScript.
    lines.push(
      ...["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_COMPILE_CACHE"].map(
        (name) => `[ -z "\${${name}+x}" ] || export CARRYOVER_USER_${name}="$${name}"`,
      ),
      ...compileCache(),
    );
  }
  // NODE_OPTIONS can make Node fail before any of our code runs (a --require of a file that is gone);
  // NODE_EXTRA_CA_CERTS loads a CA bundle on every start, for code that opens no TLS connection.
  const file = self(statusLine);
  const launch = render === undefined ? "exec" : "carryover_launch";
  lines.push(
    "unset NODE_OPTIONS NODE_EXTRA_CA_CERTS",
    // The status line's command sources this file in Claude Code's own shell (one sh, no fork), naming it in
    // `$carryover_statusline`; run as a script, the file is `$0`.
    ...(statusLine ? ["self=${carryover_statusline:-$0}"] : []),
    // The Node the installer chose, a link beside the executables; else PATH's.
    ...(render === undefined ? [] : [LAUNCH_AFTER_RENDER]),
    `if [ -x "\${${file}%/*}/node" ]; then ${launch} "\${${file}%/*}/node" "$${file}" "$@"; fi`,
    `if command -v node >/dev/null 2>&1; then ${launch} node "$${file}" "$@"; fi`,
    ...noNode(hook, statusLine),
  );
  return ["#!/bin/sh\n", ...lines.map((line) => `${PREFIX}${line}\n`)].join("");
}

/**
 * Node started after a render in sh that read stdin and left the line to Node: it gets those bytes on its stdin (a
 * pipe; the status line always exits 0). Otherwise Node replaces the shell, as every other start.
 */
const LAUNCH_AFTER_RENDER = [
  "carryover_launch() {",
  'if [ -n "${carryover_stdin+x}" ]; then printf %s "$carryover_stdin" | "$@"; exit 0; fi; exec "$@"; }',
].join(" ");

/** The sh variable holding the executable's path: `$0`, or the status line's `$self` (it may be sourced). */
const self = (statusLine) => (statusLine ? "self" : "0");

/**
 * The status line runs on every render: Node's compile cache keeps its compiled code between them
 * (NODE_COMPILE_CACHE, Node 22.1 and later; an entry that fails its check is compiled again and rewritten).
 * Under carryover's root, and only once that exists: Node would make the dirs it lacks with mode 755, and
 * the root is private. `CARRYOVER_NODE_COMPILE_CACHE` tells the statusline's JavaScript the value is ours.
 */
function compileCache() {
  return [
    "unset NODE_COMPILE_CACHE",
    "n=$r/cache/node-compile",
    'case $r in /*) if [ -d "$r" ]; then export NODE_COMPILE_CACHE="$n" CARRYOVER_NODE_COMPILE_CACHE="$n"; fi;; esac',
  ];
}

function probeLines(hook, event, probe) {
  const lines = probe.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) throw new Error(`${hook}: the ${event} probe is empty`);
  // Each line is prefixed for JavaScript's sake: a quoted string must not run on into the next one.
  for (const line of lines) {
    if (line.trimEnd().endsWith("\\"))
      throw new Error(`${hook}: the ${event} probe line ${JSON.stringify(line)} continues on the next`);
    if (/['"]/.test(line.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "")))
      throw new Error(`${hook}: the ${event} probe line ${JSON.stringify(line)} leaves a quote open`);
  }
  return lines;
}

/**
 * No Node anywhere: one log line, exit 0 (a hook fails open; the status line shows why it has no reading). This runs
 * on every prompt and every render until the user acts, so a hook logs a day's same case (its Node dir, PATH) once,
 * keeping the case last logged beside the log (`no-node.<hook>`); the log needs no bound here.
 */
function noNode(hook, statusLine) {
  const dir = `\${${self(statusLine)}%/*}`;
  return [
    // The PATH we log, then one with the tools below.
    "l=$r/log/carryover.log; p=$PATH; PATH=$PATH:/usr/bin:/bin",
    `t=$(date -u +%Y-%m-%dT%TZ 2>/dev/null); k="\${t%%T*} ${dir} $p"; s=\${l%/*}/no-node.${hook}`,
    'x=; read -r x 2>/dev/null <"$s"',
    // The log's dir private, as core makes it.
    'if [ "$x" != "$k" ] && { [ -d "${l%/*}" ] || mkdir -m 700 "${l%/*}" 2>/dev/null; }; then',
    // No line continuation: the next line's prefix would join the command.
    `f='%s ${hook}: no node found (%s/node, PATH=%s); see carryover doctor\\n'`,
    `printf "$f" "$t" "${dir}" "$p" >>"$l" 2>/dev/null && printf '%s\\n' "$k" >"$s" 2>/dev/null`,
    "fi",
    ...(statusLine ? ["printf 'carryover: no node found - run carryover doctor\\n'"] : []),
    "exit 0",
  ];
}
