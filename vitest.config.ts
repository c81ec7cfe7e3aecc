import { defineConfig } from "vitest/config";

// Where tests live; each project below takes the files of one kind from these roots.
const ROOTS = [
  "packages/*/src",
  "packages/*/test",
  "apps/*/src",
  "apps/*/test",
  "test-fixtures",
  "scripts",
  "test/reliability",
  "bench/recall",
];
const under = (pattern: string) => ROOTS.map((root) => `${root}/**/${pattern}`);

const FUZZ = "test/reliability/fuzz-*.test.ts";
// A test that spawns a process or reads a built file is named *.integration.test.ts: it runs after the build.
const INTEGRATION = "*.integration.test.ts";
const E2E = "*.e2e.test.ts";
const CLAUDE = "*.claude.e2e.test.ts";

export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    projects: [
      {
        test: {
          // In-process only: no build, no child process. Must pass on a fresh clone, fast.
          name: "unit",
          sequence: { groupOrder: 0 },
          // Threads start faster than forked processes; no unit test needs a process of its own (process.chdir).
          pool: "threads",
          // Every core: the tests are in-process work and the main thread mostly waits (vitest leaves one core out).
          maxWorkers: "100%",
          setupFiles: ["./scripts/unit-guard.ts"],
          include: under("*.test.ts"),
          exclude: [...under(INTEGRATION), ...under(E2E), FUZZ, "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // Generated payloads through every hook in-process: CARRYOVER_FUZZ_RUNS per hook (.ci/run sets 10,000).
          name: "fuzz",
          sequence: { groupOrder: 1 },
          include: [FUZZ],
          exclude: under(E2E),
          testTimeout: 600_000,
        },
      },
      {
        test: {
          name: "integration",
          sequence: { groupOrder: 1 },
          include: under(INTEGRATION),
          exclude: ["**/node_modules/**"],
          globalSetup: ["./scripts/build-before-tests.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // The built executables, spawned as Claude Code runs them.
          name: "e2e",
          sequence: { groupOrder: 2 },
          include: under(E2E),
          exclude: [...under(CLAUDE), "**/node_modules/**"],
          globalSetup: ["./scripts/build-before-tests.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          // The real `claude` against the mock API, with the built executables installed.
          name: "claude",
          sequence: { groupOrder: 3 },
          include: under(CLAUDE),
          exclude: ["**/node_modules/**"],
          globalSetup: ["./scripts/build-before-tests.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
