import type { JsonFormat } from "./_format.ts";
import { deepEqual } from "./equal.ts";

/** A parsed JSON value with the offsets of its text; objects and arrays keep their members' texts. */
type Node =
  | { kind: "scalar"; start: number; end: number; value: unknown }
  | { kind: "object"; start: number; end: number; value: Record<string, unknown>; members: Member[] }
  | { kind: "array"; start: number; end: number; value: unknown[]; members: Member[] };

interface Member {
  /** Whitespace (a comma taken out) between the previous member, or the bracket, and this one. */
  lead: string;
  /** `"key": ` as written, for object members; "" for array items. */
  keyText: string;
  key: string | undefined;
  node: Node;
}

/**
 * `value` written in the layout of `original`: every part whose value did not change keeps its exact
 * text (spacing, inline objects, key quoting), changed parts are reprinted in place and new members
 * follow their siblings' layout. So an edit of settings.json shows as a small diff and leaves the rest
 * of the user's file as it was. `original` must be valid JSON.
 */
export function reprintJson(original: string, value: unknown, format: JsonFormat): string {
  const bom = original.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  const text = original.slice(bom.length);
  const parser = new Parser(text);
  parser.skipSpace();
  const root = parser.value();
  const reprinted = print(root, value, text, 0, format);
  const suffix = text.slice(root.end);
  return `${bom}${text.slice(0, root.start)}${reprinted}${suffix}`;
}

function print(node: Node, value: unknown, text: string, depth: number, format: JsonFormat): string {
  if (deepEqual(node.value, value)) return text.slice(node.start, node.end);
  if (node.kind === "object" && isObject(value))
    return printMembers(node, Object.entries(value), text, depth, format, ["{", "}"]);
  if (node.kind === "array" && Array.isArray(value))
    return printMembers(
      node,
      value.map((item, index) => [String(index), item] as const),
      text,
      depth,
      format,
      ["[", "]"],
    );
  return fresh(value, depth, format);
}

function printMembers(
  node: Extract<Node, { members: Member[] }>,
  entries: ReadonlyArray<readonly [string, unknown]>,
  text: string,
  depth: number,
  format: JsonFormat,
  [open, close]: readonly [string, string],
): string {
  const isObjectNode = node.kind === "object";
  const inner = text.slice(node.start + 1, node.end - 1);
  const last = node.members.at(-1);
  const trail = last ? text.slice(last.node.end, node.end - 1).replace(",", "") : inner.includes("\n") ? inner : "";
  const multiline = node.members.length === 0 || text.slice(node.start, node.end).includes("\n");
  // A second member's lead is the separator spacing; after `{` in a one-line container it is usually "".
  const newLead = multiline
    ? (last?.lead ?? `${format.eol}${format.indent.repeat(depth + 1)}`)
    : node.members.length >= 2
      ? last!.lead
      : " ";
  const render = (item: unknown) => (multiline ? fresh(item, depth + 1, format) : inline(item));
  const parts: string[] = [];
  let next = 0;
  for (const [key, item] of entries) {
    const member = isObjectNode
      ? node.members.find((candidate) => candidate.key === key)
      : matchItem(node.members, item, next);
    if (member && !isObjectNode) next = node.members.indexOf(member) + 1;
    if (member) parts.push(`${member.lead}${member.keyText}${print(member.node, item, text, depth + 1, format)}`);
    else parts.push(`${newLead}${isObjectNode ? `${JSON.stringify(key)}: ` : ""}${render(item)}`);
  }
  if (parts.length === 0) return `${open}${close}`;
  const closing = node.members.length > 0 ? trail : multiline ? `${format.eol}${format.indent.repeat(depth)}` : "";
  return `${open}${parts.join(",")}${closing}${close}`;
}

/**
 * The original item an array item continues: the next equal one (items removed before it are skipped),
 * else the next one when both are containers (an item edited in place), else none (a new item).
 */
function matchItem(members: readonly Member[], item: unknown, from: number): Member | undefined {
  const equal = members.slice(from).find((member) => deepEqual(member.node.value, item));
  if (equal) return equal;
  const candidate = members[from];
  const container = (value: unknown) => value !== null && typeof value === "object";
  return candidate &&
    container(candidate.node.value) &&
    container(item) &&
    Array.isArray(candidate.node.value) === Array.isArray(item)
    ? candidate
    : undefined;
}

/** One line, spaced like `{"type": "command", "args": []}`, for a container written on one line. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

function fresh(value: unknown, depth: number, format: JsonFormat): string {
  return JSON.stringify(value, null, format.indent)
    .split("\n")
    .join(`${format.eol}${format.indent.repeat(depth)}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A small JSON parser that keeps offsets; the text was already checked by JSON.parse. */
class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  skipSpace(): string {
    const start = this.at;
    while (this.at < this.text.length && /[\s]/.test(this.text[this.at]!)) this.at++;
    return this.text.slice(start, this.at);
  }

  value(): Node {
    const start = this.at;
    const char = this.text[this.at];
    if (char === "{" || char === "[") return this.container(char);
    if (char === '"') {
      const raw = this.string();
      return { kind: "scalar", start, end: this.at, value: JSON.parse(raw) };
    }
    const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at));
    if (!match) throw new Error(`unexpected ${JSON.stringify(char)} at offset ${this.at}`);
    this.at += match[0].length;
    return { kind: "scalar", start, end: this.at, value: JSON.parse(match[0]) };
  }

  private string(): string {
    const start = this.at++;
    while (this.text[this.at] !== '"') this.at += this.text[this.at] === "\\" ? 2 : 1;
    this.at++;
    return this.text.slice(start, this.at);
  }

  private container(open: "{" | "["): Node {
    const start = this.at++;
    const close = open === "{" ? "}" : "]";
    const members: Member[] = [];
    let lead = this.skipSpace();
    while (this.text[this.at] !== close) {
      if (this.text[this.at] === ",") {
        this.at++;
        lead = this.skipSpace();
      }
      let keyText = "";
      let key: string | undefined;
      if (open === "{") {
        const keyStart = this.at;
        key = JSON.parse(this.string()) as string;
        this.skipSpace();
        this.at++;
        this.skipSpace();
        keyText = this.text.slice(keyStart, this.at);
      }
      const node = this.value();
      members.push({ lead, keyText, key, node });
      lead = this.skipSpace();
    }
    this.at++;
    const value =
      open === "{"
        ? Object.fromEntries(members.map((member) => [member.key!, member.node.value]))
        : members.map((member) => member.node.value);
    return open === "{"
      ? { kind: "object", start, end: this.at, value: value as Record<string, unknown>, members }
      : { kind: "array", start, end: this.at, value: value as unknown[], members };
  }
}
