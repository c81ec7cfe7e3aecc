// Bundled by run.mjs with the case files into bench/.cache/kit.mjs: Node 20 cannot import core's TypeScript.
import { copyFileSync, linkSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { transcriptPath } from "../packages/core/src/index.ts";
import type { CaseContext } from "./cases/types.ts";

export { shellCommandFor as statusLineCommand } from "../apps/cli/src/settings/statusline-slot.ts";
export { logPath } from "../packages/core/src/index.ts";

export { generateTranscript } from "../test-fixtures/transcripts/generate.ts";

const SESSION_ID = "be4c0000-0000-4000-8000-00000000be4c";

export interface SandboxPaths {
  home: string;
  projectDir: string;
  env: Record<string, string>;
}

/** The captured payloads name /home/user and /home/user/proj; the sandbox's own paths replace them. */
function relocate(value: unknown, sandbox: SandboxPaths): unknown {
  if (typeof value === "string")
    return value.replaceAll("/home/user/proj", sandbox.projectDir).replaceAll("/home/user", sandbox.home);
  if (Array.isArray(value)) return value.map((item) => relocate(item, sandbox));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, relocate(item, sandbox)]));
  }
  return value;
}

/** A case context in `sandbox`, its transcript a copy (or hard link) of `transcriptSource`. */
export function prepareContext(sandbox: SandboxPaths, payloadsDir: string, transcriptSource: string): CaseContext {
  const path = transcriptPath(sandbox.env, sandbox.projectDir, SESSION_ID);
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  try {
    linkSync(transcriptSource, path);
  } catch {
    copyFileSync(transcriptSource, path);
  }
  return {
    home: sandbox.home,
    projectDir: sandbox.projectDir,
    env: sandbox.env,
    sessionId: SESSION_ID,
    transcriptPath: path,
    captured(name) {
      const payload = relocate(JSON.parse(readFileSync(join(payloadsDir, `${name}.json`), "utf8")), sandbox) as Record<
        string,
        unknown
      >;
      payload.session_id = SESSION_ID;
      if ("transcript_path" in payload) payload.transcript_path = path;
      return payload;
    },
  };
}
