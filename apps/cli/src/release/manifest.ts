import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  array,
  boolean,
  type Infer,
  literal,
  looseObject,
  number,
  oneOf,
  optional,
  parseJsonText,
  string,
} from "@carryover/core";
import { CliError } from "../errors.ts";

const name = string({ pattern: /^[a-z0-9][a-z0-9-]*$/ });
const sha256 = string({ pattern: /^[0-9a-f]{64}$/ });
/** Inside the release dir: not absolute, no `..`. */
const relativePath = string({ pattern: /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/ });

const registration = looseObject({
  /** A Claude Code hook event, or `statusLine` for the status line slot. */
  event: string(),
  matcher: optional(string()),
  /** A permission rule Claude Code tests the tool call against before it starts the handler (hooks' `if`). */
  if: optional(string()),
  /** Seconds; absent only for `statusLine`, which has no timeout setting. */
  timeout: optional(number({ min: 1, integer: true })),
});

const skillFile = looseObject({
  path: relativePath,
  sha256,
  /** 0o755 for the skill's executables, 0o644 for the rest. */
  mode: number({ integer: true }),
});

/** One hook or skill as the release manifest describes it (written by scripts/assemble-release.mjs). */
const manifestEntry = looseObject({
  name,
  kind: oneOf(["hook", "skill"]),
  package: string(),
  version: string(),
  description: string(),
  recommended: boolean(),
  events: array(string()),
  registrations: array(registration),
  /** Each installed as `name` in `~/.claude/carryover/bin/`, from `file` inside the release dir. */
  executables: array(looseObject({ name, file: relativePath, sha256 })),
  /** Each copied from `dir` inside the release dir into the scope's skills dir. */
  skills: array(looseObject({ name, dir: relativePath, files: array(skillFile) })),
});

const manifest = looseObject({ manifestVersion: literal(1), entries: array(manifestEntry) });

export type ManifestEntry = Infer<typeof manifestEntry>;
export type Registration = Infer<typeof registration>;

export interface Release {
  dir: string;
  entries: ManifestEntry[];
}

export const STATUS_LINE_EVENT = "statusLine";

/** Reads `<dir>/manifest.json`; a missing or malformed manifest is one clear line. */
export function loadRelease(dir: string): Release {
  const absolute = resolve(dir);
  const path = join(absolute, "manifest.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(
      `no release manifest at ${path}; make one with \`node scripts/release.mjs dir\` or point --from at a release dir`,
    );
  }
  const value = parseJsonText(text, path);
  const refused: string[][] = [];
  if (!manifest(value, [], refused)) {
    const where = refused[0]?.join(".") || "the top level";
    throw new CliError(`${path}: not a carryover manifest (${where} is not what one holds); rebuild it`);
  }
  return { dir: absolute, entries: value.entries };
}

export function sha256Of(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A release file's bytes, refused unless they hash to what the manifest says. */
export function verifiedFile(release: Release, file: string, sha256: string): Buffer {
  const path = join(release.dir, file);
  const data = readFileSync(path);
  const actual = sha256Of(data);
  if (actual !== sha256)
    throw new CliError(
      `${path}: sha256 ${actual.slice(0, 12)}… does not match the manifest's ${sha256.slice(0, 12)}…; ` +
        "the release is damaged, rebuild it",
    );
  return data;
}
