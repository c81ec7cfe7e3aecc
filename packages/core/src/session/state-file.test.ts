import { describe, expect, it } from "vitest";
import {
  isMechanicalSnapshot,
  isUnfilledState,
  MECHANICAL_SNAPSHOT_MARK,
  renderState,
  STATE_HEADERS,
  stateSections,
  stateTemplate,
  verifyState,
} from "./state-file.ts";

const FILLED = `# Compact Prep State

Session: s-1

## Active Plan
Plan B: stream the transcript.

## Current Phase
2 of 3

## TaskList Summary
- [x] parse
- [ ] render

## Session Decisions
Adopted B; rejected A (too slow).

## Constraints and Blockers
none

## Worker Topology
single agent

## Editing Files
src/run.ts

## Recovery Notes
Read the plan first.
`;

describe("verifyState", () => {
  it("accepts a state with every header, in order", () => {
    expect(verifyState(FILLED)).toEqual({ ok: true, missing: [], outOfOrder: [] });
    expect(verifyState(FILLED.replace(/\n/g, "\r\n"))).toMatchObject({ ok: true });
    expect(verifyState(FILLED.replace("## Active Plan", "## Active Plan   "))).toMatchObject({ ok: true });
  });

  it("names the missing headers", () => {
    const text = FILLED.replace("## Worker Topology\n", "").replace("## Current Phase\n", "");
    expect(verifyState(text)).toEqual({
      ok: false,
      missing: ["## Current Phase", "## Worker Topology"],
      outOfOrder: [],
    });
  });

  it("names a header that comes too early", () => {
    const text = FILLED.replace("## Recovery Notes\n", "").replace(
      "## Active Plan\n",
      "## Recovery Notes\nx\n\n## Active Plan\n",
    );
    expect(verifyState(text)).toMatchObject({ ok: false, missing: [] });
    expect(verifyState(text).outOfOrder).toEqual(["## Recovery Notes"]);
  });

  it("does not count a header that is not on its own line", () => {
    expect(verifyState(FILLED.replace("## Editing Files", "see ## Editing Files")).missing).toEqual([
      "## Editing Files",
    ]);
    expect(verifyState(FILLED.replace("## Editing Files", "### Editing Files")).missing).toEqual(["## Editing Files"]);
  });
});

describe("stateSections", () => {
  it("returns each section's body, trimmed", () => {
    const sections = stateSections(FILLED);
    expect(sections["## Active Plan"]).toBe("Plan B: stream the transcript.");
    expect(sections["## TaskList Summary"]).toBe("- [x] parse\n- [ ] render");
    expect(sections["## Recovery Notes"]).toBe("Read the plan first.");
    expect(Object.keys(sections)).toEqual(STATE_HEADERS);
  });

  it("omits headers absent from the text", () => {
    const sections = stateSections("## Session Decisions\nonly this\n");
    expect(sections).toEqual({ "## Session Decisions": "only this" });
  });
});

describe("renderState and stateTemplate", () => {
  it("renders every header in order, filling empty sections with (none), and reads back the same", () => {
    const text = renderState(["Session: s-1"], { "## Session Decisions": "  Adopted B.  ", "## Editing Files": "" });
    expect(verifyState(text).ok).toBe(true);
    const sections = stateSections(text);
    expect(sections["## Session Decisions"]).toBe("Adopted B.");
    expect(sections["## Editing Files"]).toBe("(none)");
    expect(sections["# Compact Prep State"]).toBe("Session: s-1");
  });

  it("the template names the session and the time, and passes the header check", () => {
    const text = stateTemplate("s-42", Date.UTC(2026, 10, 29, 17, 0, 0));
    expect(text.startsWith("# Compact Prep State\n\nSession: s-42\nSaved: 2026-11-29T17:00:00.000Z\n")).toBe(true);
    expect(verifyState(text).ok).toBe(true);
  });
});

describe("isMechanicalSnapshot", () => {
  it("recognises carryover's mark and nothing else", () => {
    expect(isMechanicalSnapshot(renderState([MECHANICAL_SNAPSHOT_MARK], {}))).toBe(true);
    expect(isMechanicalSnapshot(FILLED)).toBe(false);
  });
});

describe("isUnfilledState", () => {
  it("is true for the template and for a state whose every section says none", () => {
    expect(isUnfilledState(stateTemplate("s-1", 0))).toBe(true);
    expect(isUnfilledState(renderState([], { "## Active Plan": "none" }))).toBe(true);
  });

  it("is false once any section holds something", () => {
    expect(isUnfilledState(renderState([], { "## Session Decisions": "Adopted B; rejected A (too slow)." }))).toBe(
      false,
    );
  });
});
