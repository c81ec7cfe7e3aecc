import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { FACTS } from "./facts.ts";
import { judged } from "./report.ts";
import { runScenario } from "./run.ts";
import { SCENARIOS, SMOKE_SCENARIO } from "./scenarios.ts";

const CLI = join(import.meta.dirname, "../../apps/cli/dist/carryover.cjs");

// `pnpm bench -- --only recall` runs every scenario; this one keeps the harness and its classifier honest.
it("recall, /compact without /compact-prep: every fact carryover holds is in reach, nothing wrong", async () => {
  const scenario = SCENARIOS.find((s) => s.id === SMOKE_SCENARIO)!;
  const run = await runScenario(scenario, true, { cli: CLI, nodeBinDir: dirname(process.execPath) });
  const [cell] = run.cells;
  expect(run.notes).toEqual([]);
  const missed = FACTS.filter(
    (fact) => judged(fact, cell!) && !["in context", "one read away"].includes(cell!.placements[fact.id].place),
  );
  expect(missed.map((fact) => fact.kind)).toEqual([]);
  expect(cell!.wrongs).toEqual([]);
  // What only carryover brings: the pinned line in its context, the task list in the files it names.
  expect(cell!.placements.pin).toMatchObject({ place: "in context", byCarryover: true });
  expect(cell!.placements.tasks).toMatchObject({ place: "one read away", byCarryover: true });
  // Without /compact-prep carryover holds no decision: the classifier must not find one anyway.
  expect(cell!.placements.adopted.place).toBe("lost");
});
