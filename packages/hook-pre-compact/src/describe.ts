import { isAbsolute, relative, sep } from "node:path";
import type { Activity, TranscriptFacts } from "@carryover/core";

/** How paths are shown: relative inside the project, `~/…` under HOME, absolute elsewhere. */
export interface Scope {
  projectDir: string;
  home: string;
}

export function shownPath(path: string, scope: Scope): string {
  const inProject = relative(scope.projectDir, path);
  if (inProject && !inProject.startsWith("..") && !isAbsolute(inProject)) return inProject;
  const inHome = relative(scope.home, path);
  if (scope.home && inHome && !inHome.startsWith("..") && !isAbsolute(inHome)) return `~${sep}${inHome}`;
  return path;
}

/** One line, whitespace collapsed, cut at `maxChars` with an ellipsis. */
export function oneLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** Markdown inline code that survives backticks in the text. */
export function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function capped(lines: string[], max: number): string[] {
  return lines.length > max ? [...lines.slice(0, max), `- … and ${lines.length - max} more`] : lines;
}

const times = (count: number) => (count > 1 ? ` ×${count}` : "");

export function fileLines(work: Activity, scope: Scope, max: number): string[] {
  return capped(
    work.filesChanged.map(
      (file) => `- ${code(shownPath(file.path, scope))} — ${file.tools.join(", ")}${times(file.count)}`,
    ),
    max,
  );
}

export function commandLines(work: Activity, max: number): string[] {
  return capped(
    work.commands.map(
      ({ command, runs, failures, failed }) =>
        `- ${code(oneLine(command, 160))}${commandOutcome(runs, failures, failed)}`,
    ),
    max,
  );
}

function commandOutcome(runs: number, failures: number, lastFailed: boolean): string {
  if (failures === 0) return times(runs);
  if (runs === 1) return " — failed";
  return lastFailed
    ? ` — failed ${failures} of ${runs} runs, the last one too`
    : ` — failed ${failures} of ${runs} runs, then passed`;
}

export function errorLines(errors: TranscriptFacts["errors"], scope: Scope, max: number): string[] {
  return capped(
    errors.map((error) => {
      const target = error.target
        ? ` ${code(oneLine(error.tool === "Bash" ? error.target : shownPath(error.target, scope), 120))}`
        : "";
      const outcome = error.resolved ? `fixed: ${error.resolution}` : "unresolved";
      return `- ${error.tool}${target}: ${oneLine(error.message, 200) || "(no message)"} → ${outcome}`;
    }),
    max,
  );
}

/** The TodoWrite list and the Task tools' list, one line each. */
export function progressLines(facts: TranscriptFacts, max: number): string[] {
  const todos = (facts.todos ?? []).map((todo) => `- [${todo.status}] ${oneLine(todo.content, 160)}`);
  const tasks = facts.tasks.map((task) => `- #${task.id} [${task.status}] ${oneLine(task.subject, 160)}`);
  return capped([...todos, ...tasks], max);
}

/** "2 of 3 todos done; in progress: Fix notes", or null without a list. */
export function progressSummary(facts: TranscriptFacts): string | null {
  const items = [
    ...(facts.todos ?? []).map((todo) => ({ text: todo.content, status: todo.status })),
    ...facts.tasks.map((task) => ({ text: task.subject, status: task.status })),
  ];
  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === "completed").length;
  const active = items.filter((item) => item.status === "in_progress").map((item) => oneLine(item.text, 80));
  return `${done} of ${items.length} items done${active.length > 0 ? `; in progress: ${active.join("; ")}` : ""}`;
}
