// UserPromptSubmit, and SessionStart with matcher `compact`: re-injects what the user pinned in the project's
// and the user's pinned.md, every turn (or every N) and always right after a compaction.
import { lstatSync } from "node:fs";
import {
  configEnvName,
  contextOutput,
  type HookDefinition,
  MAX_CONTEXT_CHARS,
  projectConfigPath,
  SHARED_KEYS,
} from "@carryover/core";
import { keys } from "./config.ts";
import { PINNED_BY } from "./framing.ts";
import { pinnedPaths, projectPinnedPath } from "./pinned.ts";

type PinEvent = "UserPromptSubmit" | "SessionStart";

/**
 * The prompt's probe in sh, run by the executable's prelude before Node starts (packages/build): neither
 * pinned.md has bytes. A link, or anything with a size (a dir too), goes on, and Node tells them apart.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shFastPath = /* @__PURE__ */ promptProbeInSh();

// The paths as core and pinned.ts spell them, over the prelude's `$project` and `$carryover`.
function promptProbeInSh(): Record<string, string> {
  return {
    UserPromptSubmit: [
      `a=${projectPinnedPath("$project")}; b=$carryover/pinned.md`,
      '[ -L "$a" ] || [ -s "$a" ] || [ -L "$b" ] || [ -s "$b" ] || exit 0',
    ].join("\n"),
  };
}

/**
 * The prompt in sh once the probe found a pin ($a and $b are its paths), where Node would print the pins whole:
 * pin's config at its defaults (no config file that mentions pin, no config variable), plain files. awk frames them
 * and prints the JSON Node would, byte for byte (a test holds the two against each other); any case it does not
 * vouch for, and an awk that does not keep every byte (busybox's and the BSDs' stop at a NUL), leaves the prompt to
 * Node. A config file's problems are Node's to log: its other keys do not change what pin prints.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shRun = /* @__PURE__ */ promptInSh();

function promptInSh(): Record<string, string> {
  if (keys.everyTurns.default !== 1) throw new Error("pin's sh path injects every turn: everyTurns must default to 1");
  // readPinned, pinnedContext and contextOutput in awk, for files that fit whole. A file's size is summed from its
  // lines, an upper bound: awk cannot see a missing last newline. `v` is valid UTF-8, which JSON.stringify leaves as
  // it is; `u`, the spaces String.prototype.trim trims beyond ASCII's (and the BOM); `k`, the bytes left of the
  // budget; `x`, the context. A config file that mentions pin (or hides a key in a \u escape) may set its keys.
  // Exit 3: Node decides. The lines are joined with no newline between them.
  const frameInAwk = String.raw`
BEGIN { if (length("a\000b") != 3 || length("\342\200\224") != 3) exit 3;
  u = "\302\240|\341\232\200|\342\200[\200-\212\250\251\257]|\342\201\237|\343\200\200|\357\273\277";
  v = "^([\001-\177]|[\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]";
  v = v "|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]";
  v = v "|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])*$";
  for (i = 1; i <= 2; i++) { f = ENVIRON["c" i]; if (f == "") continue;
    while ((r = (getline l < f)) > 0) if (l ~ /pin|\\u/) exit 3; if (r < 0) exit 3; close(f) }
  k = ENVIRON["k"] + 0; x = "";
  for (i = 1; i <= 2; i++) { f = ENVIRON["f" i]; if (f == "") continue;
    t = ""; n = 0; s = 0;
    while ((r = (getline l < f)) > 0) { s += length(l) + 1; if (s > k) exit 3; t = (n++ ? t "\n" : "") l }
    if (r < 0) exit 3; close(f);
    if (f !~ v || t !~ v || f t ~ /[\001-\010\013\014\016-\037]/) exit 3;
    sub("^([ \t\n\r]|" u ")+", "", t); sub("([ \t\n\r]|" u ")+$", "", t);
    if (t == "") continue;
    k -= s; x = x (x == "" ? "" : "\n\n") "PINNED_BY " f ":\n" t }
  if (x == "") exit 0; if (length(x) > ENVIRON["m"] + 0) exit 3;
  o = ""; while (match(x, /[\\"\t\r\n]/)) { c = substr(x, RSTART, 1);
    o = o substr(x, 1, RSTART - 1) "\\" (c == "\t" ? "t" : c == "\r" ? "r" : c == "\n" ? "n" : c);
    x = substr(x, RSTART + 1) }
  printf "%s", "JSON_OPEN" o x "JSON_CLOSE" }
  `;
  // core's JSON around the context, and its heading, as awk string literals.
  const [jsonOpen, jsonClose] = JSON.stringify(contextOutput("UserPromptSubmit", { additionalContext: "@" })).split(
    "@",
  );
  const awkText = (text: string) => text.replace(/[\\"]/g, "\\$&");
  const program = frameInAwk
    .replace("PINNED_BY", awkText(PINNED_BY))
    .replace("JSON_OPEN", awkText(jsonOpen!))
    .replace("JSON_CLOSE", awkText(jsonClose!));
  const envNames = [
    ...Object.keys(SHARED_KEYS).map((key) => configEnvName("", key)),
    ...Object.keys(keys).map((key) => configEnvName("pin", key)),
  ];
  const awk = program.trim().split("\n");
  if (awk.some((line) => line.includes("'"))) throw new Error("pin's awk program must hold no single quote");
  return {
    UserPromptSubmit: [
      // Paths as Node spells them (the prelude refused `.` and `..`), and no switch spelled so only Node reads it.
      "o=1; case $c/:$project/ in *//*) o= ;; esac",
      "case ${CARRYOVER-} in ''|1|true|on|yes) ;; *) o= ;; esac",
      "case ${CARRYOVER_DISABLE-} in *pin*|*all*) o= ;; esac",
      `[ -z "${envNames.map((name) => `\${${name}+x}`).join("")}" ] || o=`,
      `g=$carryover/config.json; [ -e "$g" ] || g=; h=${projectConfigPath("$project")}; [ -e "$h" ] || h=`,
      'for p in "$a" "$b"; do',
      '  if [ -L "$p" ] || { [ -s "$p" ] && [ ! -f "$p" ]; }; then o=; fi',
      "done",
      'if [ -n "$o" ]; then',
      '  [ "$b" != "$a" ] || b=; [ -s "$a" ] || a=; [ -s "$b" ] || b=',
      ...awk.map((line, i) => `  w=${i === 0 ? "" : "$w"}'${line.trim()}'`),
      `  k=${keys.maxBytes.default} m=${MAX_CONTEXT_CHARS} f1=$a f2=$b c1=$g c2=$h ` +
        'LC_ALL=C awk "$w" 2>/dev/null && exit 0',
      "fi",
    ].join("\n"),
  };
}

export const hook: HookDefinition<PinEvent, typeof keys, string[]> = {
  name: "pin",
  config: () => import("./config.ts"),
  events: ["UserPromptSubmit", "SessionStart"],

  /** The pinned files that have bytes (one lstat each); null for none, or a SessionStart other than compact. */
  probe({ payload, env, projectDir }) {
    if (payload.hook_event_name === "SessionStart" && payload.source !== "compact") return null;
    const paths = pinnedPaths(projectDir, env).filter(hasBytes);
    return paths.length > 0 ? paths : null;
  },

  async run({ input, config, session, log }, paths) {
    const deps = await import("./deps.ts");
    const { everyTurns, maxBytes } = config.hook;
    const { pins, problems } = deps.readPinned(paths, maxBytes);
    for (const problem of problems) log(problem);
    const problemMessage = problems.length > 0 ? `carryover pin: ${problems.join("; ")}` : undefined;
    if (pins.length === 0) return deps.contextOutput(input.hook_event_name, { systemMessage: problemMessage });

    const context = deps.pinnedContext(pins, maxBytes);
    // With everyTurns 1 nothing needs counting: no state file, no dir.
    if (everyTurns > 1) {
      const digest = deps.digestOf(context);
      if (input.hook_event_name === "SessionStart") deps.recordInjection(session, digest);
      else if (!deps.takePromptTurn(session, everyTurns, digest)) {
        return deps.contextOutput(input.hook_event_name, { systemMessage: problemMessage });
      }
    }
    const systemMessage = [deps.capWarning(pins, maxBytes), problemMessage].filter(Boolean).join("\n") || undefined;
    return deps.contextOutput(input.hook_event_name, { additionalContext: context, systemMessage });
  },
};

// lstat: a symlinked pin goes on to run, which refuses it with a warning; so does anything odd.
function hasBytes(path: string): boolean {
  try {
    return (lstatSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
  } catch {
    return true;
  }
}
