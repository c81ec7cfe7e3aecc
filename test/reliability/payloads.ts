import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { projectSlug } from "../../packages/core/src/index.ts";
import type { Sandbox } from "./sandbox.ts";
import { SESSIONS } from "./seed.ts";

const PAYLOADS_DIR = join(import.meta.dirname, "..", "..", "test-fixtures", "payloads");
const TEN_MB = 10 * 1024 * 1024;
// Shared, so thousands of cases hold references, not copies. The second one doubles when JSON-escaped.
const HUGE_STRINGS = ["a".repeat(TEN_MB), '"\\\n'.repeat(Math.floor(TEN_MB / 3))];

type FuzzKind =
  | "captured"
  | "mutated"
  | "hostile-session"
  | "huge"
  | "truncated"
  | "garbage-text"
  | "binary"
  | "not-an-object"
  | "concatenated"
  | "empty"
  | "closed";

/** One stdin for a hook: JSON of `value`, or `text`, or raw `bytes`, or (closed) no stdin at all. */
export interface FuzzCase {
  kind: FuzzKind;
  value?: unknown;
  text?: string;
  bytes?: Uint8Array;
}

/** The stdin's bytes as a string (what core's stdin reader decodes), "" when closed. */
export function stdinText(fuzzCase: FuzzCase): string {
  if (fuzzCase.bytes) return Buffer.from(fuzzCase.bytes).toString("utf8");
  if (fuzzCase.text !== undefined) return fuzzCase.text;
  if (fuzzCase.kind === "closed") return "";
  return JSON.stringify(fuzzCase.value);
}

/** The stdin's raw bytes for a spawned process; null when stdin is closed. */
export function stdinBytes(fuzzCase: FuzzCase): Buffer | null {
  if (fuzzCase.kind === "closed") return null;
  if (fuzzCase.bytes) return Buffer.from(fuzzCase.bytes);
  return Buffer.from(stdinText(fuzzCase), "utf8");
}

/** A short, printable description of a case for a failure message. */
export function describeCase(fuzzCase: FuzzCase): string {
  const text = stdinText(fuzzCase);
  return `${fuzzCase.kind} (${text.length} chars): ${JSON.stringify(text.slice(0, 160))}`;
}

type Json = Record<string, unknown>;

/**
 * Claude Code's captured payloads for `event` (`StatusLine`: the status line's stdin), moved into the
 * sandbox: its HOME, project and transcripts, with session ids from the seeded pool.
 */
export function capturedPayloads(event: string, sandbox: Sandbox): Json[] {
  const files = readdirSync(PAYLOADS_DIR).filter((name) => name.endsWith(".json"));
  const found: Json[] = [];
  for (const name of files) {
    const text = readFileSync(join(PAYLOADS_DIR, name), "utf8")
      .replaceAll("-home-user-proj", projectSlug(sandbox.project))
      .replaceAll("/home/user/proj", sandbox.project)
      .replaceAll("/home/user", sandbox.home);
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value) || !("session_id" in value)) continue;
    const payload = value as Json;
    const isStatusLine = name.startsWith("statusline");
    if (isStatusLine ? event !== "StatusLine" : payload.hook_event_name !== event) continue;
    found.push(payload);
    // The path memory-guard watches: a write to this project's MEMORY.md.
    const toolInput = payload.tool_input as Json | undefined;
    if (typeof toolInput?.file_path === "string") {
      found.push({ ...payload, tool_input: { ...toolInput, file_path: join(sandbox.memoryDir, "MEMORY.md") } });
    }
  }
  if (found.length === 0) throw new Error(`no captured payload for ${event} in ${PAYLOADS_DIR}`);
  return found;
}

function withSession(payload: Json, session: unknown, sandbox: Sandbox): Json {
  const copy = structuredClone(payload);
  copy.session_id = session;
  if (typeof session === "string" && SESSIONS.includes(session))
    copy.transcript_path = join(sandbox.transcriptsDir, `${session}.jsonl`);
  return copy;
}

/** Session ids a payload must never turn into a path. */
const HOSTILE_SESSION_IDS = [
  "../x",
  "../../../../tmp/evil",
  "/etc/passwd",
  "/tmp/abs",
  "a\u0000b",
  "x".repeat(10 * 1024),
  "",
  ".",
  "..",
  "a/b",
  "a\\b",
  " lead",
  "é",
  "-x",
  "%2e%2e%2f",
];

function interestingStrings(sandbox: Sandbox): string[] {
  return [
    "",
    " ",
    "../x",
    "/",
    "/dev/null",
    sandbox.project,
    sandbox.home,
    join(sandbox.project, "missing", "deeper"),
    join(sandbox.memoryDir, "MEMORY.md"),
    "a\u0000b",
    "\ud800",
    "💥".repeat(200),
    "x".repeat(10_000),
    "<summary>cut</summary>",
    "compact",
    "startup",
    "manual",
    "auto",
    "/compact keep going",
  ];
}

/** Every path to a value inside `value` (object keys and array indexes), the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
}

function setAt(root: Json, path: (string | number)[], update: (parent: any, key: string | number) => void): void {
  let parent: any = root;
  for (const key of path.slice(0, -1)) {
    parent = parent?.[key];
    if (parent === null || typeof parent !== "object") return;
  }
  update(parent, path.at(-1)!);
}

type Mutation =
  | { op: "delete"; at: number }
  | { op: "retype"; at: number; value: unknown }
  | { op: "string"; at: number; value: string }
  | { op: "extra"; key: string; value: unknown }
  | { op: "event"; value: unknown };

function mutate(payload: Json, mutations: readonly Mutation[]): Json {
  const copy = structuredClone(payload);
  for (const mutation of mutations) {
    // Defined, not assigned: `__proto__` then becomes a key of the JSON, as a hostile payload would carry it.
    if (mutation.op === "extra")
      Object.defineProperty(copy, mutation.key, {
        value: mutation.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else if (mutation.op === "event") copy.hook_event_name = mutation.value;
    else {
      const paths = pathsOf(copy);
      if (paths.length === 0) continue;
      const path = paths[mutation.at % paths.length]!;
      setAt(copy, path, (parent, key) => {
        if (mutation.op === "delete") {
          if (Array.isArray(parent)) parent.splice(Number(key), 1);
          else delete parent[key];
        } else parent[key] = mutation.value;
      });
    }
  }
  return copy;
}

/** A string-valued path of `payload` set to one of the 10 MB strings. */
function withHugeString(payload: Json, at: number, huge: string): Json {
  const copy = structuredClone(payload);
  const paths = pathsOf(copy).filter((path) => {
    let value: any = copy;
    for (const key of path) value = value?.[key];
    return typeof value === "string";
  });
  const path = paths.length > 0 ? paths[at % paths.length]! : ["prompt"];
  setAt(copy, path, (parent, key) => (parent[key] = huge));
  return copy;
}

/**
 * Payloads for a hook that takes `events`: Claude Code's captured ones, then the same mutated (fields
 * missing, of the wrong type, hostile strings, extra fields, another event), hostile session ids, 10 MB
 * strings, cut-off JSON, text and binary garbage, JSON that is not an object, two documents in one,
 * empty stdin and (processes only) closed stdin. Weights are per 10,000.
 */
export function fuzzCases(
  events: readonly string[],
  sandbox: Sandbox,
  options: { closedStdin: boolean },
): fc.Arbitrary<FuzzCase> {
  const bases = events.flatMap((event) => capturedPayloads(event, sandbox));
  const base = fc.constantFrom(...bases);
  const session = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...SESSIONS) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
  );
  const seeded = fc.tuple(base, session).map(([payload, id]) => withSession(payload, id, sandbox));
  const hostileString = fc.oneof(
    fc.constantFrom(...interestingStrings(sandbox)),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.string({ maxLength: 40 }),
  );
  const index = fc.nat({ max: 10_000 });
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constant("delete" as const), at: index }),
    fc.record({ op: fc.constant("retype" as const), at: index, value: fc.anything({ maxDepth: 2 }) }),
    fc.record({ op: fc.constant("string" as const), at: index, value: hostileString }),
    fc.record({
      op: fc.constant("extra" as const),
      key: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("__proto__", "constructor", "hookSpecificOutput")),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.record({
      op: fc.constant("event" as const),
      value: fc.oneof(
        fc.constantFrom(
          "SessionStart",
          "UserPromptSubmit",
          "PreCompact",
          "PostCompact",
          "PostToolUse",
          "Stop",
          "StatusLine",
          "",
        ),
        fc.anything({ maxDepth: 0 }),
      ),
    }),
  );
  const mutated = fc
    .tuple(seeded, fc.array(mutation, { minLength: 1, maxLength: 5 }))
    .map(([payload, mutations]) => mutate(payload, mutations));
  const json = fc.oneof(seeded, mutated);

  const kinds: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzCase> }> = [
    { weight: 1_800, arbitrary: seeded.map((value) => ({ kind: "captured", value })) },
    { weight: 4_400, arbitrary: mutated.map((value) => ({ kind: "mutated", value })) },
    {
      weight: 500,
      arbitrary: fc
        .tuple(base, fc.constantFrom(...HOSTILE_SESSION_IDS))
        .map(([payload, id]) => ({ kind: "hostile-session", value: withSession(payload, id, sandbox) })),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(seeded, index, fc.constantFrom(...HUGE_STRINGS))
        .map(([payload, at, huge]) => ({ kind: "huge", value: withHugeString(payload, at, huge) })),
    },
    {
      weight: 800,
      arbitrary: fc.tuple(json, fc.double({ min: 0, max: 1, noNaN: true })).map(([value, share]) => {
        const text = JSON.stringify(value);
        return { kind: "truncated", text: text.slice(0, Math.floor(text.length * share)) };
      }),
    },
    {
      weight: 600,
      arbitrary: fc.string({ unit: "binary", maxLength: 2_000 }).map((text) => ({ kind: "garbage-text", text })),
    },
    { weight: 600, arbitrary: fc.uint8Array({ maxLength: 4_096 }).map((bytes) => ({ kind: "binary", bytes })) },
    {
      weight: 500,
      arbitrary: fc
        .jsonValue({ maxDepth: 3 })
        .filter((value) => value === null || typeof value !== "object" || Array.isArray(value))
        .map((value) => ({ kind: "not-an-object", text: JSON.stringify(value) })),
    },
    {
      weight: 300,
      arbitrary: fc.tuple(json, json, fc.constantFrom("", "\n", "\ufeff")).map(([a, b, separator]) => ({
        kind: "concatenated",
        text:
          separator === "\ufeff"
            ? `\ufeff${JSON.stringify(a)}`
            : `${JSON.stringify(a)}${separator}${JSON.stringify(b)}`,
      })),
    },
    { weight: 497, arbitrary: fc.constantFrom("", " ", "\n", "\r\n\t ").map((text) => ({ kind: "empty", text })) },
  ];
  if (options.closedStdin) kinds.push({ weight: 200, arbitrary: fc.constant({ kind: "closed" }) });
  return fc.oneof(...kinds);
}

/** Cases by kind: the figure RELIABILITY.md reports. */
export function countKinds(cases: readonly FuzzCase[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const fuzzCase of cases) counts[fuzzCase.kind] = (counts[fuzzCase.kind] ?? 0) + 1;
  return counts;
}

/**
 * `count` stdins for a spawned hook: always 5 with stdin closed, 5 empty, one with a 10 MB string per
 * event (the two kinds in turn), 5 of random bytes; the rest drawn like the in-process ones.
 */
export function processCases(events: readonly string[], sandbox: Sandbox, count: number, seed: number): FuzzCase[] {
  const fixed: FuzzCase[] = [
    ...Array.from({ length: 5 }, (): FuzzCase => ({ kind: "closed" })),
    ...Array.from({ length: 5 }, (): FuzzCase => ({ kind: "empty", text: "" })),
    ...events.map(
      (event, index): FuzzCase => ({
        kind: "huge",
        value: withHugeString(
          withSession(capturedPayloads(event, sandbox)[0]!, SESSIONS[0], sandbox),
          index,
          HUGE_STRINGS[index % 2]!,
        ),
      }),
    ),
    ...fc
      .sample(fc.uint8Array({ minLength: 1, maxLength: 65_536 }), { seed, numRuns: 5 })
      .map((bytes): FuzzCase => ({ kind: "binary", bytes })),
  ];
  return [
    ...fixed,
    ...fc.sample(fuzzCases(events, sandbox, { closedStdin: true }), { seed, numRuns: count - fixed.length }),
  ];
}
