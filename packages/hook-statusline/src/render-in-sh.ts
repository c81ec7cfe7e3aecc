// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are sh, whose ${…} is its own
import { autoCompactTokens, configEnvName, projectConfigPath, SHARED_KEYS, sameLevelBands } from "@carryover/core";
import { keys } from "./config.ts";
import { SEGMENT_SEPARATOR, UNKNOWN, WINDOW_NOTE_BELOW_SHARE } from "./line.ts";

/**
 * The render in sh and awk, run by the executable's prelude before Node starts (packages/build), for the renders
 * that change nothing but the reading: no config file and no variable that sets a key or moves the auto-compact
 * point, a line that fits `COLUMNS` (Claude Code 2.1.332 sets it to the terminal's width), a session with a
 * reading already synced for the levels, and a context that stays in the levels' bands. awk parses the stdin,
 * prints the line Node would and rewrites the reading as Node would (a test holds the two against each other, on
 * every awk users have); the mtime Node gives the reading, `touch -d @…`. Anything it does
 * not vouch for (a first reading, a level crossed, a compaction, a settings file naming `autoCompactWindow`, odd
 * JSON, no /proc) it hands to Node, with the stdin it read: `$carryover_stdin`, which the prelude pipes to Node.
 */
export function renderInSh(chainedEnv: string): string {
  const levels = SHARED_KEYS.levels.default;
  const fresh = SHARED_KEYS.freshReadingMs.default;
  if (SHARED_KEYS.contextWindowTokens.default !== 0) throw new Error("the sh render takes the window from stdin only");
  // Claude Code's reserve below the window, the same at every window without a cap (checked at two).
  const reserve = 1_000_000 - autoCompactTokens(1_000_000, {})!;
  if (2_000_000 - autoCompactTokens(2_000_000, {})! !== reserve) throw new Error("the auto-compact point moved");
  // The level protocol's bands: at or above a level, below it by at most the re-arm margin, further below.
  const margin = Array.from({ length: 100 }, (_, i) => i + 1).find((m) => !sameLevelBands(49.5, 50 - m, [50]))! - 1;
  const awkText = (text: string) => text.replace(/[\\"]/g, "\\$&");
  const standIns: Record<string, string> = {
    "@LEVELS@": levels.join(" "),
    "@LEVELS_JSON@": awkText(JSON.stringify(levels)),
    "@FRESH@": String(fresh),
    "@RESERVE@": String(reserve),
    "@MARGIN@": String(margin),
    "@NOTE_SHARE@": String(WINDOW_NOTE_BELOW_SHARE),
    "@UNKNOWN@": UNKNOWN,
    "@SEPARATOR@": SEGMENT_SEPARATOR,
    "@FORMAT@": awkText(keys.format.default),
  };
  const program = awkProgram().replace(/@[A-Z_]+@/g, (standIn) => standIns[standIn] ?? standIn);
  const awk = program.trim().split("\n");
  if (awk.some((line) => line.includes("'") || line.includes("@"))) throw new Error("the awk holds a ' or a stand-in");
  // Set, each of these makes Node decide: the switches, the config keys' variables and the auto-compact point's.
  // CARRYOVER_DEBUG the prelude leaves to Node already.
  const envNames = [
    "CARRYOVER",
    "CARRYOVER_DISABLE",
    chainedEnv,
    ...Object.keys(SHARED_KEYS).map((key) => configEnvName("", key)),
    ...Object.keys(keys).map((key) => configEnvName("statusline", key)),
    ...[
      "DISABLE_AUTO_COMPACT",
      "DISABLE_COMPACT",
      "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
      "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    ],
  ];
  return [
    `g=$carryover/config.json; h=${projectConfigPath("$project")}; k=$session/compaction.json; u=$session/usage.json`,
    `o=1; [ -z "${envNames.map((name) => `\${${name}+x}`).join("")}" ] || o=`,
    'if [ -e "$g" ] || [ -L "$g" ] || [ -e "$h" ] || [ -L "$h" ] || [ -L "$k" ] || [ -L "$u" ]; then o=; fi',
    '[ -e "$k" ] || k=; [ -z "$k" ] || [ -f "$k" ] || o=; [ -f "$u" ] || u=',
    'if [ -n "$o" ] && [ -r /proc/self/stat ]; then',
    `  w='${awk.map((line) => line.trim()).join("")}'`,
    `  s1=$c/settings.json s2=$project/.claude/settings.json s3=$project/.claude/settings.local.json`,
    '  o=$(sid=$sid u=$u k=$k s1=$s1 s2=$s2 s3=$s3 LC_ALL=C awk "$w" 2>/dev/null)',
    '  case $o in R*) printf %s "${o#R}"; exit 0;; N*) o=${o#N}; carryover_stdin=${o%x};; esac',
    '  if [ "${o#W}" != "$o" ]; then o=${o#W}; touch -d "@${o%% *}" "$u" 2>/dev/null; printf %s "${o#* }"; exit 0; fi',
    "fi",
  ].join("\n");
}

// Prints R and the line, W, the reading's mtime (s), a space and the line once it rewrote the reading, or N, the
// stdin and an x (command substitution keeps its trailing newlines): Node decides. The lines are joined with no
// newline between them: every statement ends in ; or }. JSON is parsed whole (a value's type and path, keys kept
// with their quotes, a key twice is Node's), and a string Node would read differently (an escape) is Node's too.
const awkProgram = () => String.raw`
function fail() { printf "N%sx", IN; exit 0 };
function ws() { sub(/^[ \t\n\r]+/, "", S) };
function tok(  c, t) { ws(); if (S == "") { T = ""; return }; c = substr(S, 1, 1);
  if (c == "\"") { if (!match(S, /^"([^"\\]|\\.)*"/)) fail(); T = "s" }
  else if (c ~ /[-0-9]/) { if (!match(S, /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) fail(); T = "n" }
  else if (match(S, /^(true|false|null)/)) T = "l";
  else if (index("{}[]:,", c)) { T = c; RLENGTH = 1 }
  else fail();
  V = substr(S, 1, RLENGTH); S = substr(S, RLENGTH + 1);
  if (T == "s") { if (V ~ /[\001-\037]/) fail(); t = V;
    gsub(/\\(["\\\/bfnrt]|u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f])/, "", t); if (index(t, "\\")) fail() } };
function val(p, d,  k, n) { if (d > 64) fail(); tok();
  if (T == "{") { TY[p] = "o"; tok(); if (T == "}") return;
    for (;;) { if (T != "s" || index(V, "\\")) fail(); k = p SUBSEP V; if (k in TY) fail(); tok();
      if (T != ":") fail(); val(k, d + 1); tok(); if (T == "}") return; if (T != ",") fail(); tok() } };
  if (T == "[") { TY[p] = "a"; ws(); if (substr(S, 1, 1) == "]") { tok(); return };
    for (n = 0; ; n++) { val(p SUBSEP n, d + 1); tok(); if (T == "]") return; if (T != ",") fail() } };
  if (T == "s" || T == "n" || T == "l") { TY[p] = T; VA[p] = V; return };
  fail() };
function doc(p, text) { S = text; val(p, 0); tok(); if (T != "" || TY[p] != "o") fail() };
function typ(p) { return (p in TY) ? TY[p] : "" };
function num(p) { if (typ(p) != "n") return -1; if (VA[p] !~ /^[0-9]+$/) fail(); return VA[p] + 0 };
function file(f,  r, l, t) { t = ""; while ((r = (getline l < f)) > 0) t = t l; if (r < 0) fail(); close(f); return t };
function round(x) { return int(x + 0.5) };
function tenths(n) { return n % 10 == 0 ? sprintf("%.0f", n / 10) : sprintf("%.0f.%d", int(n / 10), n % 10) };
function tokens(v,  k) { if (v < 1000) return sprintf("%.0f", v); if (v < 9950) return tenths(round(v / 100)) "k";
  k = round(v / 1000); if (k < 1000) return k "k"; return tenths(round(v / 100000)) "M" };
function band(p, l) { return p >= l ? 2 : p >= l - @MARGIN@ ? 1 : 0 };
BEGIN { RS = "\001"; while ((r = getline l) > 0) IN = IN (n++ ? "\001" : "") l; if (r < 0) fail();
  if (length(IN) > 1048576) fail(); doc("j", IN); J = "j" SUBSEP;
  for (i = 1; i <= 3; i++) { f = ENVIRON["s" i];
    while ((r = (getline l < f)) > 0) if (index(l, "\"autoCompactWindow\"")) fail();
    if (r == 0) close(f) };
  for (i = split("cwd transcript_path", q, " "); i > 0; i--) { p = J "\"" q[i] "\"";
    if (typ(p) == "s" && length(VA[p]) > 4096) fail() };
  p = J "\"session_id\""; if (typ(p) != "s" || VA[p] != "\"" ENVIRON["sid"] "\"") fail();
  m = J "\"model\""; id = ""; name = "";
  if (typ(m) == "o") { p = m SUBSEP "\"id\""; if (typ(p) == "s" && VA[p] != "\"\"") id = VA[p];
    p = m SUBSEP "\"display_name\""; if (typ(p) == "s") name = substr(VA[p], 2, length(VA[p]) - 2) };
  if (name == "" && id != "") name = substr(id, 2, length(id) - 2);
  if (name ~ /[^ -~]|\\|^ | $/ || length(name) > 60 || id ~ /[^ -~]|\\/) fail();
  w = J "\"context_window\""; if (typ(w) != "o") fail();
  W = num(w SUBSEP "\"context_window_size\""); if (W <= 0) fail();
  A = W - @RESERVE@; if (A < 1) A = 1;
  cu = w SUBSEP "\"current_usage\""; reading = typ(cu) == "o";
  nl = split("@LEVELS@", L, " "); for (i = 1; i <= nl; i++) L[i] += 0;
  if (reading) { CT = 0;
    for (i = split("input_tokens cache_creation_input_tokens cache_read_input_tokens", q, " "); i > 0; i--) {
      v = num(cu SUBSEP "\"" q[i] "\""); if (v > 0) CT += v };
    WP = round(CT / W * 1000); AP = round(CT / A * 1000); LEFT = A - CT; if (LEFT < 0) LEFT = 0;
    if ((getline st < "/proc/self/stat") <= 0) fail(); close("/proc/self/stat");
    i = length(st); while (i > 0 && substr(st, i, 1) != ")") i--; split(substr(st, i + 2), F, " ");
    if (F[20] !~ /^[0-9]+$/) fail(); ME = F[20] * 10; srand(); NOW = srand() * 1000 };
  X["percent"] = reading ? int(AP / 10) "%" : "@UNKNOWN@"; X["used"] = reading ? tokens(CT) : "@UNKNOWN@";
  X["limit"] = tokens(A); X["left"] = reading ? tokens(LEFT) : "@UNKNOWN@";
  X["windowPercent"] = reading ? int(WP / 10) "%" : "@UNKNOWN@"; X["window"] = tokens(W); X["model"] = name;
  X["windowNote"] = reading && A < W * @NOTE_SHARE@ ? X["windowPercent"] " of " X["window"] " window" : "";
  f = "@FORMAT@"; line = "";
  while (match(f, /\{[A-Za-z]+\}/)) { p = substr(f, RSTART + 1, RLENGTH - 2);
    line = line substr(f, 1, RSTART - 1) ((p in X) ? X[p] : substr(f, RSTART, RLENGTH));
    f = substr(f, RSTART + RLENGTH) };
  line = line f; n = split(line, q, "@SEPARATOR@"); line = "";
  for (i = 1; i <= n; i++) if (q[i] !~ /^[ \t]*$/) line = line (line == "" ? "" : "@SEPARATOR@") q[i];
  sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line);
  p = ENVIRON["COLUMNS"]; if (p != "") { if (p !~ /^[0-9]+$/ || p + 0 <= 0) fail();
    t = line; gsub(/[\200-\277]/, "", t); if (length(t) > p + 0) fail() };
  if (reading && ENVIRON["NO_COLOR"] == "" && ENVIRON["TERM"] != "dumb") {
    c = AP / 10 >= 100 || (nl > 1 && AP / 10 >= L[nl]) ? 31 : nl > 0 && AP / 10 >= L[1] ? 33 : 32;
    line = "\033[" c "m" line "\033[0m" };
  if (!reading) { printf "R%s", line; exit 0 };
  if (ENVIRON["k"] != "") { doc("c", file(ENVIRON["k"])); C = "c" SUBSEP; seq = typ(C "\"seq\"") == "n";
    if (!seq || num(C "\"seq\"") < 0 || num(C "\"startedMs\"") < 0) fail();
    if (ME <= VA[C "\"startedMs\""] + 0) { printf "R%s", line; exit 0 } };
  if (ENVIRON["u"] == "") fail(); doc("u", file(ENVIRON["u"])); U = "u" SUBSEP;
  pct = num(U "\"contextTokens\""); pat = typ(U "\"atMs\"") == "n" ? VA[U "\"atMs\""] + 0 : -1;
  if (pct < 0 || pat < 0 || VA[U "\"atMs\""] !~ /^[0-9]+$/) fail();
  if (ENVIRON["k"] != "" && num(U "\"takenByProcessStartedMs\"") <= VA[C "\"startedMs\""] + 0) fail();
  pmw = num(U "\"modelWindowTokens\""); p = U "\"autoCompactTokens\"";
  pac = typ(p) == "l" && VA[p] == "null" ? -2 : num(p); p = U "\"model\"";
  pm = typ(p) == "s" ? VA[p] : typ(p) == "" ? "" : "?"; if (pm == "?") fail();
  same = pct == CT && pmw == W && pac == A && pm == id;
  if (same && NOW - pat >= 0 && NOW - pat <= @FRESH@ / 2) { printf "R%s", line; exit 0 };
  p = U "\"syncedLevels\""; if (pac < 0 || typ(p) != "a" || (p SUBSEP nl) in TY) fail();
  for (i = 1; i <= nl; i++) if (typ(p SUBSEP (i - 1)) != "n" || VA[p SUBSEP (i - 1)] + 0 != L[i]) fail();
  pp = pac > 0 ? round(pct / pac * 1000) / 10 : 0;
  for (i = 1; i <= nl; i++) if (band(pp, L[i]) != band(AP / 10, L[i])) fail();
  t = "{\"source\":\"statusline\",\"contextTokens\":" sprintf("%.0f", CT) ",\"modelWindowTokens\":" sprintf("%.0f", W);
  t = t ",\"autoCompactTokens\":" sprintf("%.0f", A) (id == "" ? "" : ",\"model\":" id);
  t = t ",\"atMs\":" sprintf("%.0f", NOW);
  t = t ",\"windowPercent\":" tenths(WP) ",\"autoCompactPercent\":" tenths(AP);
  t = t ",\"tokensToAutoCompact\":" sprintf("%.0f", LEFT);
  t = t ",\"freshUntilMs\":" sprintf("%.0f", NOW + @FRESH@) ",\"takenByProcessStartedMs\":" sprintf("%.0f", ME);
  t = t ",\"syncedLevels\":@LEVELS_JSON@}"; if (length(t) > 4096) fail();
  for (s = " "; length(s) < 4096; ) s = s s;
  printf "%s", t substr(s, 1, 4096 - length(t)) > ENVIRON["u"]; close(ENVIRON["u"]);
  printf "W%.0f %s", (NOW + @FRESH@) / 1000, line }
`;
