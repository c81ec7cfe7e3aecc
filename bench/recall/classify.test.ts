import { describe, expect, it } from "vitest";
import { type Capture, namedPaths, steeringOf } from "./capture.ts";
import { place, wrongs } from "./classify.ts";
import { FACTS, type FactId, MARK } from "./facts.ts";
import type { Segment } from "./segments.ts";

const fact = (id: FactId) => FACTS.find((f) => f.id === id)!;
const NONE = { earlierCompactions: 0, stateBeforePrevious: false };

function capture(parts: { segments?: Segment[]; files?: Capture["files"]; steering?: string }): Capture {
  const segments = parts.segments ?? [];
  return {
    ordinal: 1,
    compactionRequest: 5,
    steering: parts.steering ?? "",
    request: 6,
    text: segments.map((segment) => segment.text).join("\n"),
    segments,
    files: parts.files ?? [],
  };
}

const recovery = (text: string): Segment => ({
  by: "carryover",
  label: "carryover's SessionStart context (recovery)",
  text,
});
const claude = (text: string): Segment => ({ by: "claude", label: "Claude Code's own context", text });
const carryoverFile = (label: string, content: string) => ({
  path: `/x/${label}`,
  label,
  byCarryover: true,
  namedByCarryover: true,
  content,
});

describe("place", () => {
  it("finds a fact in the request before the files it names, and says who put it there", () => {
    const found = capture({
      segments: [
        claude(`Background shell b1 is still running: tail -f /dev/null # ${MARK.watcher}`),
        recovery(`- the watcher ${MARK.watcher}`),
      ],
      files: [carryoverFile("snapshot", MARK.watcher)],
    });
    expect(place(fact("shell"), found)).toEqual({
      place: "in context",
      source: "carryover's SessionStart context (recovery)",
      byCarryover: true,
    });
  });

  it("one read away when only a named file holds it; asked when only the steering does; else lost", () => {
    const files = [carryoverFile("the changes log", `- Bash \`${MARK.fixedCommand}\` → fixed`)];
    expect(place(fact("fixed"), capture({ files }))).toMatchObject({
      place: "one read away",
      source: "the changes log",
    });
    const steering = `unresolved errors: Bash ls ${MARK.unresolvedTarget}`;
    expect(place(fact("unresolved"), capture({ steering }))).toMatchObject({ place: "asked of the summarizer" });
    expect(place(fact("unresolved"), capture({ files }))).toEqual({ place: "lost", source: "", byCarryover: false });
  });

  it("a rejected option without its reason is not the fact", () => {
    expect(place(fact("rejected"), capture({ segments: [claude(`Rejected: ${MARK.rejected}`)] })).place).toBe("lost");
    const both = capture({
      files: [carryoverFile("state", `Rejected: ${MARK.rejected}, because ${MARK.rejectedReason}`)],
    });
    expect(place(fact("rejected"), both).place).toBe("one read away");
  });
});

describe("wrongs", () => {
  it("a fixed error listed under unresolved ones is wrong; the changes log's fixed line is not", () => {
    const snapshot = carryoverFile(
      "snapshot",
      `## Constraints and Blockers\n\nUnresolved errors:\n- Bash \`${MARK.fixedCommand}\`: Exit code 1`,
    );
    expect(wrongs(capture({ files: [snapshot] }), NONE).map((w) => w.what)).toEqual([
      "a fixed error called unresolved",
    ]);
    const log = carryoverFile(
      "log",
      `### Errors (1, 1 fixed)\n- Bash \`${MARK.fixedCommand}\`: Exit code 1 → fixed: the same command succeeded`,
    );
    expect(wrongs(capture({ files: [log] }), NONE)).toEqual([]);
  });

  it("an unresolved error called fixed, a finished worker called running, a running one called finished", () => {
    const text = [
      `- Bash \`ls ${MARK.unresolvedTarget}\` → fixed`,
      `- ${MARK.finishedShell}: still running`,
      `- ${MARK.scout} finished`,
    ].join("\n");
    expect(wrongs(capture({ segments: [recovery(text)] }), NONE).map((w) => w.what)).toEqual([
      "an unresolved error called fixed",
      "a finished worker called running",
      "a running worker called finished",
    ]);
  });

  it("only carryover's text counts: Claude Code's own reminders are not carryover's wrongs", () => {
    expect(
      wrongs(capture({ segments: [claude(`Background shell ${MARK.finishedShell} is still running`)] }), NONE),
    ).toEqual([]);
  });

  it("denying an earlier compaction is wrong only when there was one", () => {
    const line = recovery(
      "- Compact-prep state: /tmp/s.md, saved 5 s before this compaction (no earlier compaction recorded).",
    );
    expect(wrongs(capture({ segments: [line] }), NONE)).toEqual([]);
    const found = wrongs(capture({ segments: [line] }), { earlierCompactions: 1, stateBeforePrevious: false });
    expect(found.map((w) => w.what)).toEqual(["an earlier compaction denied"]);
    expect(found[0]!.evidence).toContain("no earlier compaction recorded");
  });

  it("a state saved before the previous compaction must be flagged as such", () => {
    const truth = { earlierCompactions: 2, stateBeforePrevious: true };
    const plain = recovery(
      "- Compact-prep state: /tmp/s.md, written through /compact-prep, saved 2026-12-01T18:06:19Z, 8 s before it.",
    );
    expect(wrongs(capture({ segments: [plain] }), truth).map((w) => w.what)).toEqual([
      "a state from before the previous compaction presented as current",
    ]);
    const flagged = recovery(
      "- Compact-prep state: /tmp/s.md, saved …: it predates the last compaction and may describe an earlier stage.",
    );
    expect(wrongs(capture({ segments: [flagged] }), truth)).toEqual([]);
  });

  it("PreCompact quoting such a state as the record to carry is wrong, once however often it is echoed", () => {
    const quote =
      "The session's /compact-prep state file (/tmp/s.md, saved 2026-12-01 18:43 UTC) records the following; " +
      "those sections carry it faithfully:";
    const echoed: Segment = { by: "carryover", label: "PreCompact's output, echoed by Claude Code", text: quote };
    const found = capture({ segments: [echoed], steering: quote });
    expect(wrongs(found, { earlierCompactions: 1, stateBeforePrevious: false })).toEqual([]);
    expect(wrongs(found, { earlierCompactions: 1, stateBeforePrevious: true }).map((w) => w.what)).toEqual([
      "a state from before the previous compaction presented as current",
    ]);
  });

  it("carryover's own files listed as the session's work, and a second recovery context, are wrong", () => {
    const log = carryoverFile("log", "### Files modified (2)\n- `src/a.ts` — Write\n- `CHANGES_SESSION.md` — Edit");
    const heading = "carryover recovery: this conversation was compacted at 2026-12-01T18:06:27Z.";
    const twice = capture({ segments: [recovery(heading), recovery(heading)], files: [log] });
    expect(wrongs(twice, NONE).map((w) => w.what)).toEqual([
      "carryover's own file listed as the session's work",
      "a second copy of a recovery context",
    ]);
  });
});

describe("what a request names", () => {
  it("absolute and ~/ paths under the sandbox, without trailing punctuation or slashes", () => {
    const sandbox = { root: "/tmp/sb", home: "/tmp/sb/home" };
    const text = "- Task list: /tmp/sb/home/.claude/tasks/abc/ (2 tasks). See ~/.claude/plans/p.md, and /etc/passwd.";
    expect(namedPaths(text, sandbox)).toEqual(["/tmp/sb/home/.claude/tasks/abc", "/tmp/sb/home/.claude/plans/p.md"]);
  });

  it("the steering is what Claude Code appended after Additional Instructions", () => {
    const prompt =
      "…summary…\n\nAdditional Instructions:\ncarryover pre-compact: keep it\n\nREMINDER: Do NOT call any tools.";
    expect(steeringOf(prompt)).toBe("carryover pre-compact: keep it");
    expect(steeringOf("no instructions")).toBe("");
  });
});
