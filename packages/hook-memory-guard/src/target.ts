import { join, resolve } from "node:path";
import { autoMemoryDir, type Env } from "@carryover/core";

/** The payload is a write (Write, Edit, MultiEdit) to the MEMORY.md Claude Code loads for this project. */
export function isMemoryIndexWrite(payload: Readonly<Record<string, unknown>>, env: Env): boolean {
  const input = payload.tool_input as { file_path?: unknown } | undefined;
  const cwd = payload.cwd;
  if (typeof input?.file_path !== "string" || typeof cwd !== "string" || !input.file_path.endsWith("MEMORY.md")) return false;
  return resolve(cwd, input.file_path) === join(autoMemoryDir(env, cwd), "MEMORY.md");
}
