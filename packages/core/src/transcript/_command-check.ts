import { isAbsolute, join, normalize } from "node:path";

/** A command run as a check: its words (program, subcommands), options with their values, the paths it covers. */
export interface Check {
  /** The words without options and paths: `uv run ruff check`, `go build`, `./templar init demo`. */
  key: string;
  options: readonly string[];
  /** Absolute; the directory it ran in when it names none. Null when a `cd` left the directory unknown. */
  targets: readonly string[] | null;
}

/** What a Bash command says about checks: which one a failure is about, which ones a pass vouches for. */
export interface CommandChecks {
  /** The command's last step: what a failure of the whole command is taken to be about. */
  last: Check | null;
  /** What a pass proves passed: every part of a trailing `&&` chain; none after an `||`. */
  vouched: readonly Check[];
}

const NONE: CommandChecks = { last: null, vouched: [] };

/**
 * Reads a Bash command the way a person skimming it would: steps split at `&&`, `||`, `;`, `&` and newlines,
 * a pipeline's last command (its exit status), `cd` followed, heredoc bodies and redirections dropped. A
 * command it cannot follow (a subshell, an unclosed quote) yields nothing: only the same command fixes it then.
 */
export function commandChecks(command: string, cwd: string | undefined): CommandChecks {
  const steps = splitSteps(command);
  if (!steps) return NONE;
  let dir: string | null = cwd && isAbsolute(cwd) ? cwd : null;
  // The steps after the last `;`, `&` or newline, and whether an `||` joins any of them.
  let group: Check[] = [];
  let groupHasOr = false;
  let last: Check | null = null;
  for (const step of steps) {
    if (step.before !== "&&" && step.before !== "||") {
      group = [];
      groupHasOr = false;
    }
    if (step.before === "||") groupHasOr = true;
    const simple = dropAssignments(step.words);
    if (simple.length === 0) continue;
    if (KEYWORDS.has(simple[0]!)) return NONE;
    let check: Check;
    if (simple[0] === "cd") {
      // `cd` moves the steps after it; as the last step it is what a failure is about.
      dir = changeDir(dir, simple[1]);
      check = { key: "cd", options: [], targets: dir === null ? null : [dir] };
    } else check = checkOf(simple, dir);
    group.push(check);
    last = check;
  }
  return { last, vouched: groupHasOr ? [] : group };
}

// Compound commands are beyond this reader: their steps are not the checks they look like.
const KEYWORDS = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
]);

function dropAssignments(words: readonly string[]): string[] {
  let at = 0;
  while (at < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!)) at += 1;
  return words.slice(at);
}

function changeDir(dir: string | null, to: string | undefined): string | null {
  if (to === undefined || to === "-" || to.startsWith("~") || to.includes("$")) return null;
  if (isAbsolute(to)) return normalize(to);
  return dir === null ? null : join(dir, to);
}

function checkOf(words: readonly string[], dir: string | null): Check {
  const [program, ...rest] = words;
  const keyWords = [program!];
  const options: string[] = [];
  const paths: string[] = [];
  let lastWasOption = false;
  for (const word of rest) {
    const isOption = word.startsWith("-") && word.length > 1;
    if (isOption) options.push(word);
    else if (isPathLike(word)) paths.push(word);
    // A bare word right after an option is taken as its value (`-o templar`).
    else if (options.length > 0 && !options.at(-1)!.includes(" ") && !options.at(-1)!.includes("=") && lastWasOption) {
      options.push(`${options.pop()!} ${word}`);
    } else keyWords.push(word);
    lastWasOption = isOption;
  }
  let targets: string[] | null;
  if (paths.length === 0) targets = dir === null ? null : [dir];
  else if (paths.every((path) => isAbsolute(path)) || dir !== null)
    targets = paths.map((path) => resolvePath(dir, path));
  else targets = null;
  return { key: keyWords.join(" "), options, targets };
}

function resolvePath(dir: string | null, path: string): string {
  // Go's `./...` means the directory and all below it.
  const plain = path.endsWith("/...") ? path.slice(0, -4) || "." : path === "..." ? "." : path;
  const absolute = isAbsolute(plain) ? plain : join(dir!, plain);
  const normal = normalize(absolute);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

function isPathLike(word: string): boolean {
  if (/\s/.test(word) || word.includes("$") || word.startsWith("~")) return false;
  return (
    word.includes("/") ||
    word === "." ||
    word === ".." ||
    word.startsWith("./") ||
    /^[^=:]+\.[A-Za-z0-9]{1,8}$/.test(word)
  );
}

/** Whether a pass of `passed` shows that `failed`, the same check over the same or a narrower target, now passes. */
export function covers(passed: Check, failed: Check): boolean {
  if (passed.key !== failed.key || passed.targets === null || failed.targets === null) return false;
  // The pass may drop options (`--fix`, `-o bin`), not add any, nor drop one whose value is code (`-c "…"`).
  if (!passed.options.every((option) => failed.options.includes(option))) return false;
  if (
    !failed.options.every(
      (option) => !/\s/.test(option.slice(option.indexOf(" ") + 1)) || passed.options.includes(option),
    )
  )
    return false;
  return failed.targets.every((target) =>
    passed.targets!.some((outer) => target === outer || target.startsWith(outer === "/" ? "/" : `${outer}/`)),
  );
}

interface Step {
  /** The operator before this step; "" for the first and after a newline, `;` or `&`. */
  before: "" | "&&" | "||";
  words: string[];
}

/** Shell words per step, a pipeline reduced to its last command; null when the command is beyond this reader. */
function splitSteps(command: string): Step[] | null {
  const steps: Step[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let before: Step["before"] = "";
  // A heredoc's body is the stdin of its command, a script for an interpreter: it stays part of the check.
  const heredocs: Array<{ delimiter: string; stripTabs: boolean; words: string[]; at: number }> = [];
  let redirect = false;
  const endWord = () => {
    if (!inWord) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = "";
    inWord = false;
  };
  const endStep = (next: Step["before"]) => {
    endWord();
    if (words.length > 0) steps.push({ before, words });
    words = [];
    before = next;
  };
  let i = 0;
  while (i < command.length) {
    const char = command[i]!;
    if (char === "\n") {
      endStep("");
      i += 1;
      // Heredoc bodies start on the line after their operator.
      while (heredocs.length > 0) {
        const { delimiter, stripTabs, words: owner, at } = heredocs.shift()!;
        const body: string[] = [];
        let end = command.indexOf("\n", i);
        for (;;) {
          const line = command.slice(i, end === -1 ? command.length : end);
          i = end === -1 ? command.length : end + 1;
          if ((stripTabs ? line.replace(/^\t+/, "") : line) === delimiter || end === -1) break;
          body.push(line);
          end = command.indexOf("\n", i);
        }
        owner[at] = `<<${body.join("\n")}`;
      }
      continue;
    }
    if (char === " " || char === "\t") {
      endWord();
      i += 1;
      continue;
    }
    if (char === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) return null;
      word += command.slice(i + 1, close);
      inWord = true;
      i = close + 1;
      continue;
    }
    if (char === '"') {
      let j = i + 1;
      let text = "";
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && j + 1 < command.length) {
          text += command[j + 1];
          j += 2;
        } else {
          text += command[j];
          j += 1;
        }
      }
      if (j >= command.length) return null;
      word += text;
      inWord = true;
      i = j + 1;
      continue;
    }
    if (char === "\\") {
      if (command[i + 1] === "\n") i += 2;
      else {
        word += command[i + 1] ?? "";
        inWord = true;
        i += 2;
      }
      continue;
    }
    if (char === "$" && (command[i + 1] === "(" || command[i + 1] === "{")) {
      const close = matching(command, i + 1);
      if (close === -1) return null;
      word += command.slice(i, close + 1);
      inWord = true;
      i = close + 1;
      continue;
    }
    if (char === "`") {
      const close = command.indexOf("`", i + 1);
      if (close === -1) return null;
      word += command.slice(i, close + 1);
      inWord = true;
      i = close + 1;
      continue;
    }
    // A subshell or a group: beyond this reader.
    if (char === "(" || char === ")" || (char === "{" && !inWord)) return null;
    if (char === "#" && !inWord) {
      const end = command.indexOf("\n", i);
      i = end === -1 ? command.length : end;
      continue;
    }
    if (char === "&" && command[i + 1] === "&") {
      endStep("&&");
      i += 2;
      continue;
    }
    if (char === "|" && command[i + 1] === "|") {
      endStep("||");
      i += 2;
      continue;
    }
    if (char === "|") {
      // A pipeline's status is its last command's: start that command afresh.
      endWord();
      words = [];
      i += command[i + 1] === "&" ? 2 : 1;
      continue;
    }
    if (char === ";" || (char === "&" && command[i + 1] !== ">")) {
      endStep("");
      i += 1;
      continue;
    }
    if (char === "<" || char === ">" || (char === "&" && command[i + 1] === ">")) {
      // A redirection: `2>&1`, `>> file`, `< in`, `<<EOF`. The digit before it, if any, belongs to it.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      } else endWord();
      if (command.startsWith("<<", i) && command[i + 2] !== "<") {
        let j = i + 2;
        const stripTabs = command[j] === "-";
        if (stripTabs) j += 1;
        while (command[j] === " ") j += 1;
        const match = /^(['"]?)([^\s'";&|<>]+)\1/.exec(command.slice(j));
        if (!match) return null;
        heredocs.push({ delimiter: match[2]!, stripTabs, words, at: words.length });
        words.push("<<");
        i = j + match[0].length;
        continue;
      }
      let j = i;
      while (command[j] === "<" || command[j] === ">" || command[j] === "&") j += 1;
      if (/^\d+$/.test(command.slice(j, j + 1)) && /[>&]$/.test(command.slice(i, j))) {
        i = j + 1;
        continue;
      }
      if (command[j] === "-") j += 1;
      i = j;
      redirect = true;
      while (command[i] === " ") i += 1;
      continue;
    }
    word += char;
    inWord = true;
    i += 1;
  }
  endStep("");
  return steps;
}

/** The index of the bracket closing the one at `open`, quotes and nesting followed; -1 when none does. */
function matching(text: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}" };
  const stack = [pairs[text[open]!]!];
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (char === "(" || char === "{") stack.push(pairs[char]!);
    else if (char === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
