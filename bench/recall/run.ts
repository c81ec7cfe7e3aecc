import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { basename, delimiter, join } from "node:path";
import { createSandbox, type Sandbox } from "../../test-fixtures/e2e/index.ts";
import type { RecordedRequest } from "../../test-fixtures/mock-api/server.ts";
import { CompactionCapture } from "./capture.ts";
import { type Placement, place, type Truth, type Wrong, wrongs } from "./classify.ts";
import { Driver } from "./driver.ts";
import { FACTS, type FactId, MARK } from "./facts.ts";
import type { Scenario } from "./scenarios.ts";

export interface RunOptions {
  /** The built CLI (apps/cli/dist/carryover.cjs): carryover is installed with it, as a user does. */
  cli: string;
  /** A supported Node's bin dir, first on the sandbox's PATH: the installer links it for the hooks. */
  nodeBinDir: string;
  log?: (line: string) => void;
}

/** One classified compaction: where each fact stood, and what carryover said wrong. */
export interface Cell {
  column: string;
  placements: Record<FactId, Placement>;
  wrongs: Wrong[];
  /** /compact-prep ran before this compaction. */
  prepared: boolean;
}

export interface ScenarioRun {
  scenario: string;
  withCarryover: boolean;
  cells: Cell[];
  /** What went differently from the script (a /compact-prep whose state was not saved): reported beside the table. */
  notes: string[];
  durationMs: number;
}

/** One scenario in a fresh sandbox, with carryover installed by its CLI or not; its compactions classified. */
export async function runScenario(
  scenario: Scenario,
  withCarryover: boolean,
  options: RunOptions,
): Promise<ScenarioRun> {
  const started = Date.now();
  const watchers: Array<(request: RecordedRequest) => void> = [];
  const sandbox = await createSandbox({
    files: {
      "README.md": "# The parser project\n",
      ".claude/carryover/pinned.md": `- Never push to the release branch (${MARK.pin}).\n`,
    },
    mock: {
      onRequest: (request) => {
        for (const watch of watchers) watch(request);
      },
    },
  });
  try {
    const tmp = join(sandbox.root, "tmp");
    mkdirSync(tmp);
    // Claude Code's and the skill's temp files stay in the sandbox; the hooks run on a supported Node.
    Object.assign(sandbox.env, { TMPDIR: tmp, PATH: `${options.nodeBinDir}${delimiter}${sandbox.env.PATH ?? ""}` });
    let statePath = "";
    const capture = new CompactionCapture(sandbox, (path) => fileLabel(path, sandbox, statePath));
    const driver = new Driver({
      sandbox,
      sessionId: randomUUID(),
      withCarryover,
      cli: options.cli,
      node: join(options.nodeBinDir, "node"),
      capture,
      onStatePath: (path) => {
        statePath = path;
      },
    });
    watchers.push(
      (request) => capture.onRequest(request),
      (request) => driver.onRequest(request),
    );
    if (withCarryover && !scenario.actions.some((action) => action.do === "restart" && action.install))
      driver.install();
    driver.start(false);
    try {
      for (const action of scenario.actions) await driver.act(action);
    } finally {
      await driver.stop();
    }
    // The sandbox's temp paths differ in every run: the report shows them as <sandbox>.
    const anonymous = (text: string) => text.replaceAll(sandbox.root, "<sandbox>");
    const cells = scenario.columns.map(({ ordinal, title }): Cell => {
      const found = capture.captures.find((c) => c.ordinal === ordinal);
      if (!found)
        throw new Error(`${scenario.id}: no request after compaction ${ordinal} (${capture.compactionCount} in all)`);
      const truth: Truth = { earlierCompactions: ordinal - 1, stateBeforePrevious: driver.savedBefore(ordinal - 2) };
      const placements = Object.fromEntries(FACTS.map((fact) => [fact.id, place(fact, found)]));
      const said = withCarryover ? wrongs(found, truth) : [];
      return {
        column: title,
        placements: placements as Record<FactId, Placement>,
        wrongs: said.map((wrong) => ({ ...wrong, evidence: anonymous(wrong.evidence) })),
        prepared: driver.ranPrepBefore(ordinal - 1),
      };
    });
    return {
      scenario: scenario.id,
      withCarryover,
      cells,
      notes: driver.notes.map(anonymous),
      durationMs: Date.now() - started,
    };
  } finally {
    await sandbox.cleanup();
  }
}

function fileLabel(path: string, sandbox: Sandbox, statePath: string): string {
  const name = basename(path);
  if (path === statePath) return "the compact-prep state file";
  if (name === "CHANGES_SESSION.md") return "the changes log";
  if (name === "snapshot.md") return "the mechanical snapshot";
  if (name === "compactions.jsonl") return "the summary ledger";
  if (name === "MEMORY.md") return "MEMORY.md";
  if (name.startsWith("carryover-session-")) return "carryover's memory topic";
  if (path.startsWith(join(sandbox.home, ".claude/plans/"))) return "the plan file";
  if (path.startsWith(join(sandbox.home, ".claude/tasks/"))) return "the task list's files";
  if (name.endsWith(".output")) return "a background task's output file";
  return name;
}
