type Op = { kind: " " | "-" | "+"; text: string };

/** A unified diff (`diff -u` layout, 3 lines of context); empty when the texts are equal. */
export function unifiedDiff(before: string | null, after: string | null, path: string, context = 3): string {
  if (before === after) return "";
  const ops = diffLines(splitLines(before), splitLines(after));
  const oldName = before === null ? "/dev/null" : `a${path}`;
  const newName = after === null ? "/dev/null" : `b${path}`;
  const header = `--- ${oldName}\n+++ ${newName}\n`;
  return header + hunks(ops, context).join("");
}

function splitLines(text: string | null): string[] {
  if (text === null || text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}

/** Longest common subsequence over lines, after trimming the common head and tail (settings files are small). */
function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const rows = midA.length + 1;
  const cols = midB.length + 1;
  const lcs = new Uint32Array(rows * cols);
  for (let i = midA.length - 1; i >= 0; i--) {
    for (let j = midB.length - 1; j >= 0; j--) {
      lcs[i * cols + j] =
        midA[i] === midB[j]
          ? lcs[(i + 1) * cols + j + 1]! + 1
          : Math.max(lcs[(i + 1) * cols + j]!, lcs[i * cols + j + 1]!);
    }
  }
  const ops: Op[] = a.slice(0, head).map((text) => ({ kind: " ", text }));
  let i = 0;
  let j = 0;
  while (i < midA.length && j < midB.length) {
    if (midA[i] === midB[j]) {
      ops.push({ kind: " ", text: midA[i++]! });
      j++;
    } else if (lcs[(i + 1) * cols + j]! >= lcs[i * cols + j + 1]!) ops.push({ kind: "-", text: midA[i++]! });
    else ops.push({ kind: "+", text: midB[j++]! });
  }
  while (i < midA.length) ops.push({ kind: "-", text: midA[i++]! });
  while (j < midB.length) ops.push({ kind: "+", text: midB[j++]! });
  for (const text of a.slice(a.length - tail)) ops.push({ kind: " ", text });
  return ops;
}

function hunks(ops: Op[], context: number): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const result: string[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * context + 1) end++;
    const from = Math.max(0, changed[start]! - context);
    const to = Math.min(ops.length, changed[end]! + context + 1);
    result.push(renderHunk(ops, from, to));
    start = end + 1;
  }
  return result;
}

function renderHunk(ops: Op[], from: number, to: number): string {
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops.slice(0, from)) {
    if (op.kind !== "+") oldLine++;
    if (op.kind !== "-") newLine++;
  }
  const slice = ops.slice(from, to);
  const oldCount = slice.filter((op) => op.kind !== "+").length;
  const newCount = slice.filter((op) => op.kind !== "-").length;
  const range = (line: number, count: number) =>
    count === 0 ? `${line - 1},0` : count === 1 ? `${line}` : `${line},${count}`;
  const body = slice.map((op) => `${op.kind}${op.text}\n`).join("");
  return `@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@\n${body}`;
}
