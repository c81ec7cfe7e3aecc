import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseJsonText } from "@carryover/core";
import * as z from "zod/mini";
import { CliError } from "../errors.ts";

/** One hook or skill as the release manifest describes it (written by scripts/assemble-release.mjs). */
export interface ManifestEntry {
  name: string;
  kind: "hook" | "skill";
  package: string;
  version: string;
  description: string;
  recommended: boolean;
  events: string[];
  registrations: Registration[];
  executables: Executable[];
  skills: SkillFiles[];
}

export interface Registration {
  /** A Claude Code hook event, or `statusLine` for the status line slot. */
  event: string;
  matcher?: string | undefined;
  /** Seconds; absent only for `statusLine`, which has no timeout setting. */
  timeout?: number | undefined;
}

export interface Executable {
  /** Installed under this name in `~/.claude/carryover/bin/`. */
  name: string;
  /** Path inside the release dir. */
  file: string;
  sha256: string;
}

export interface SkillFiles {
  name: string;
  /** Dir inside the release dir. */
  dir: string;
  files: SkillFile[];
}

export interface SkillFile {
  path: string;
  sha256: string;
  /** 0o755 for the skill's executables, 0o644 for the rest. */
  mode: number;
}

export interface Release {
  dir: string;
  entries: ManifestEntry[];
}

export const STATUS_LINE_EVENT = "statusLine";

function manifestSchema() {
  const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
  const relativePath = z.string().check(z.regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/));
  return z.object({
    manifestVersion: z.literal(1),
    entries: z.array(
      z.object({
        name: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/)),
        kind: z.enum(["hook", "skill"]),
        package: z.string(),
        version: z.string(),
        description: z.string(),
        recommended: z.boolean(),
        events: z.array(z.string()),
        registrations: z.array(
          z.object({ event: z.string(), matcher: z.optional(z.string()), timeout: z.optional(z.number().check(z.positive())) }),
        ),
        executables: z.array(z.object({ name: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/)), file: relativePath, sha256 })),
        skills: z.array(
          z.object({ name: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/)), dir: relativePath, files: z.array(z.object({ path: relativePath, sha256, mode: z.number() })) }),
        ),
      }),
    ),
  });
}

/** Reads `<dir>/manifest.json`; a missing or malformed manifest is one clear line. */
export function loadRelease(dir: string): Release {
  const absolute = resolve(dir);
  const path = join(absolute, "manifest.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`no release manifest at ${path}; build one with \`node scripts/release.mjs\` or point --from at a release dir`);
  }
  const parsed = manifestSchema().safeParse(parseJsonText(text, path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`${path}: not a carryover manifest (${issue.path.join(".") || "root"}: ${issue.message})`);
  }
  return { dir: absolute, entries: parsed.data.entries };
}

export function sha256Of(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A release file's bytes, refused unless they hash to what the manifest says. */
export function verifiedFile(release: Release, file: string, sha256: string): Buffer {
  const path = join(release.dir, file);
  const data = readFileSync(path);
  const actual = sha256Of(data);
  if (actual !== sha256) throw new CliError(`${path}: sha256 ${actual.slice(0, 12)}… does not match the manifest's ${sha256.slice(0, 12)}…; the release is damaged, rebuild it`);
  return data;
}
