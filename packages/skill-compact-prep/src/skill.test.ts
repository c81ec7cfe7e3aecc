import { readFileSync } from "node:fs";
import { join } from "node:path";
import { STATE_HEADERS } from "@carryover/core";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "./args.ts";

const text = readFileSync(join(import.meta.dirname, "../skill/SKILL.md"), "utf8");
const [, frontmatter = "", body = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];

describe("SKILL.md", () => {
  it("is named compact-prep and pre-approves its state CLI by the skill dir", () => {
    expect(frontmatter).toMatch(/^name: compact-prep$/m);
    expect(frontmatter).toMatch(/^allowed-tools: .*Bash\(\$\{CLAUDE_SKILL_DIR\}\/carryover-state:\*\)/m);
  });

  it("lists the nine headers exactly and in core's order", () => {
    const listed = body
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => (STATE_HEADERS as readonly string[]).includes(line));
    expect(listed).toEqual([...STATE_HEADERS]);
  });

  it("calls the state CLI from the skill dir with the substituted session id, using commands it has", () => {
    const calls = [...body.matchAll(/"\$\{CLAUDE_SKILL_DIR\}\/carryover-state" (\S+) (.*?)`/g)];
    expect(calls.map(([, command]) => command)).toEqual(["init", "workers", "write"]);
    for (const [, command, rest] of calls) {
      expect(COMMANDS).toContain(command);
      expect(rest).toContain('--session "${CLAUDE_SESSION_ID}"');
    }
  });

  it("saves through its CLI, which plan mode lets run, not through the Write tool, which it refuses", () => {
    expect(frontmatter).not.toMatch(/^allowed-tools: .*\bWrite\b/m);
    expect(body).toContain(`write --session "\${CLAUDE_SESSION_ID}" <<'CARRYOVER_STATE'\`, then the document`);
    expect(body).toContain("then a last line `CARRYOVER_STATE`");
  });

  it("stops without a session id, and ends by telling the user to run /compact", () => {
    expect(body).toMatch(/exits non-zero, STOP/);
    expect(body.trim().split("\n").at(-1)).toMatch(/run `\/compact`/);
  });

  it("stays well inside the 5K tokens Claude Code re-injects after a compaction", () => {
    expect(text.length).toBeLessThan(4_000);
  });
});
