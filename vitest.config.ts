import { defineConfig } from "vitest/config";

// One run, two projects: `unit` (fast, no Claude Code) and `e2e` (spawns built files and the real `claude`).
export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "test-fixtures/**/*.test.ts", "scripts/**/*.test.ts", "test/reliability/**/*.test.ts", "bench/recall/**/*.test.ts"],
          exclude: ["**/*.e2e.test.ts", "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "e2e",
          sequence: { groupOrder: 1 },
          include: ["packages/*/test/**/*.e2e.test.ts", "apps/*/test/**/*.e2e.test.ts", "test-fixtures/**/*.e2e.test.ts", "test/reliability/**/*.e2e.test.ts", "bench/recall/**/*.e2e.test.ts"],
          exclude: ["**/node_modules/**"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
