import type { Palette } from "../output/color.ts";
import { sha256Of } from "../release/manifest.ts";
import { unifiedDiff } from "./_unified-diff.ts";

/** A whole-file edit of a text file; `after: null` deletes it. `internal` files (carryover's records) show no diff. */
export interface TextChange {
  kind: "text";
  path: string;
  before: string | null;
  after: string | null;
  internal?: boolean;
  /** The file got its exact bytes from before carryover back (or was removed because it did not exist). */
  restored?: boolean;
}

/** An executable or skill file copied in from a release. */
interface CopyChange {
  kind: "copy";
  path: string;
  data: Uint8Array;
  mode: number;
}

interface RemoveChange {
  kind: "remove";
  path: string;
}

/** Removes a directory carryover made, only once it is empty. */
interface RemoveDirChange {
  kind: "rmdir";
  path: string;
}

/** A symbolic link to `target` (the Node the executables start, beside them). */
interface LinkChange {
  kind: "link";
  path: string;
  target: string;
}

export type Change = TextChange | CopyChange | LinkChange | RemoveChange | RemoveDirChange;

/** What `--dry-run` prints: a unified diff per visible text file, one line per other file. */
function describeChanges(changes: readonly Change[], colors: Palette): string {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.kind === "text" && !change.internal)
      parts.push(colorDiff(unifiedDiff(change.before, change.after, change.path), colors));
    else if (change.kind === "copy")
      parts.push(
        colors.green(`+ ${change.path} (${change.data.length} bytes, sha256 ${sha256Of(change.data).slice(0, 12)}…)\n`),
      );
    else if (change.kind === "link") parts.push(colors.green(`+ ${change.path} -> ${change.target}\n`));
    else if (change.kind === "remove") parts.push(colors.red(`- ${change.path}\n`));
  }
  return parts.join("");
}

/**
 * What a dry run prints: the changes, the notes, and that nothing was written (`idle` instead when the run would
 * change nothing).
 */
export function describeDryRun(
  changes: readonly Change[],
  notes: readonly string[],
  colors: Palette,
  idle: string | null,
): string {
  const notesText = notes.map((note) => `${note}\n`).join("");
  return `${describeChanges(changes, colors)}${notesText}${colors.dim(`${idle ?? "dry run: nothing was written"}\n`)}`;
}

function colorDiff(diff: string, colors: Palette): string {
  return diff
    .split("\n")
    .map((line) =>
      /^(\+\+\+|---)/.test(line)
        ? colors.bold(line)
        : line.startsWith("+")
          ? colors.green(line)
          : line.startsWith("-")
            ? colors.red(line)
            : line.startsWith("@@")
              ? colors.cyan(line)
              : line,
    )
    .join("\n");
}
