import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";

// Real vitest runs, in throwaway projects that use this repo's vitest and the summary reporter.
const ROOT = join(import.meta.dirname, "..");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const REPORTER = join(ROOT, "scripts", "summary-reporter.ts");
const STEPS = join(ROOT, "scripts", "test-steps.mjs");
const UNIT_GUARD = join(ROOT, "scripts", "unit-guard.ts");

const scratch = mkdtempSync(join(tmpdir(), "carryover-summary-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A test file's source from its lines. */
const source = (...lines: string[]) => `${lines.join("\n")}\n`;
const PASSING = source(`import { test } from "vitest";`, `test("passes", () => {});`);

/** A vitest project whose only reporter is the summary reporter, holding `files` (name → source). */
function project(name: string, files: Record<string, string>, setupFiles: string[] = []): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, "package.json"), `{ "type": "module" }\n`);
  const config = { test: { include: ["**/*.test.ts"], reporters: [REPORTER], setupFiles } };
  writeFileSync(join(dir, "vitest.config.js"), `export default ${JSON.stringify(config)};\n`);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  return dir;
}

interface Exit {
  status: number | null;
  stdout: string;
  stderr: string;
  lastLine: string;
}

function run(command: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  const child = spawn(command[0]!, command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: "pipe" });
  const stdout: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => {
      const text = Buffer.concat(stdout).toString("utf8");
      const lastLine = text.trimEnd().split("\n").at(-1) ?? "";
      resolve({ status, stdout: text, stderr: Buffer.concat(stderr).toString("utf8"), lastLine });
    });
  });
}

// Outside pnpm test's runner, so the reporter prints its line rather than handing counts over.
const vitest = (dir: string) => run([process.execPath, VITEST, "run"], dir, { CARRYOVER_TEST_COUNTS_FILE: "" });

describe.concurrent("the summary reporter's line, on a real vitest run", () => {
  test("counts passed and skipped tests, and says 0 failed when the run passed", async () => {
    const dir = project("passing", {
      "a.test.ts": source(
        `import { test } from "vitest";`,
        `test("one", () => {});`,
        `test("two", () => {});`,
        `test.skip("off", () => {});`,
      ),
    });
    expect(await vitest(dir)).toMatchObject({ status: 0, lastLine: "2 passed, 0 failed, 1 skipped" });
  });

  test("a failing test counts as failed", async () => {
    const dir = project("failing-test", {
      "a.test.ts": source(
        `import { expect, test } from "vitest";`,
        `test("ok", () => {});`,
        `test("no", () => expect(1).toBe(2));`,
      ),
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
  });

  test("a test file that fails to load counts as failed, and so does one with no test", async () => {
    const dir = project("not-loading", {
      "ok.test.ts": PASSING,
      "missing-import.test.ts": `import "./not-there.ts";\n${PASSING}`,
      "throws-on-import.test.ts": `${PASSING}throw new Error("at import");\n`,
      "empty.test.ts": `import "vitest";\n`,
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 3 failed" });
  });

  test("a beforeAll that throws counts as failed, though vitest skips the tests it guards", async () => {
    const dir = project("before-all", {
      "a.test.ts": [
        `import { beforeAll, describe, test } from "vitest";`,
        `describe("needs chromium", () => {`,
        `  beforeAll(() => { throw new Error("chromium is not installed"); });`,
        `  test("renders", () => {});`,
        `  test("screenshots", () => {});`,
        `});`,
        `test("elsewhere", () => {});`,
      ].join("\n"),
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed, 2 skipped" });
  });

  test("an afterAll that throws counts as failed, though every test passed", async () => {
    const dir = project("after-all", {
      "a.test.ts": source(
        `import { afterAll, test } from "vitest";`,
        `afterAll(() => { throw new Error("cleanup"); });`,
        `test("ok", () => {});`,
      ),
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
  });

  test("a suite that throws while its tests are collected counts as failed", async () => {
    const dir = project("suite-error", {
      "ok.test.ts": PASSING,
      "a.test.ts": source(
        `import { describe, test } from "vitest";`,
        `describe("s", () => {`,
        `  test("t", () => {});`,
        `  throw new Error("in describe");`,
        `});`,
      ),
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
  });

  test("an unhandled error counts as failed, though the test it escaped from passed", async () => {
    const dir = project("unhandled", {
      "a.test.ts": [
        `import { test } from "vitest";`,
        `test("leaves a timer behind", async () => {`,
        `  setTimeout(() => { throw new Error("late"); }, 1);`,
        `  await new Promise((resolve) => setTimeout(resolve, 100));`,
        `});`,
      ].join("\n"),
    });
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
  });

  test("a run with no test file at all counts as failed", async () => {
    const dir = project("no-files", {});
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "0 passed, 1 failed" });
  });
});

/** Runs `steps` through scripts/test-steps.mjs's main, as scripts/test.mjs does. */
const runner = (steps: unknown[], cwd: string) =>
  run(
    [
      process.execPath,
      "--input-type=module",
      "-e",
      `import { main } from ${JSON.stringify(STEPS)}; main(${JSON.stringify(steps)}, { cwd: process.cwd() });`,
    ],
    cwd,
  );
const node = (code: string) => [process.execPath, "-e", code];
const PASSING_COUNTS = JSON.stringify({ passed: 1, failed: 0, skipped: 0, failures: [] });
const WRITES_PASSING_COUNTS_THEN_EXITS_1 = [
  `require("node:fs").writeFileSync(process.env.CARRYOVER_TEST_COUNTS_FILE, ${JSON.stringify(PASSING_COUNTS)});`,
  "process.exit(1);",
].join(" ");
const vitestStep = (name: string) => ({ name, command: [process.execPath, VITEST, "run"], countsTests: true });

describe.concurrent("pnpm test's runner: the last line sums every step", () => {
  test("a failed build is counted, and the tests after it do not run", async () => {
    const dir = project("build-fails", { "a.test.ts": PASSING });
    const exit = await runner(
      [{ name: "build", command: node("process.exit(2)"), required: true }, vitestStep("vitest")],
      dir,
    );
    expect(exit).toMatchObject({ status: 1, lastLine: "0 passed, 1 failed" });
    expect(exit.stdout).toContain("build: failed (exit 2)");
    expect(exit.stdout).toContain("not run, since build failed: vitest");
  });

  test("a failed typecheck is counted beside the tests, which still run", async () => {
    const dir = project("typecheck-fails", { "a.test.ts": PASSING });
    const exit = await runner([{ name: "typecheck", command: node("process.exit(2)") }, vitestStep("vitest")], dir);
    expect(exit).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
  });

  test("several vitest runs are summed, each failure listed above the line", async () => {
    const dir = project("two-runs", {
      "a.test.ts": source(
        `import { expect, test } from "vitest";`,
        `test("ok", () => {});`,
        `test("broken", () => expect(1).toBe(2));`,
      ),
    });
    const exit = await runner([vitestStep("first run"), vitestStep("second run")], dir);
    expect(exit).toMatchObject({ status: 1, lastLine: "2 passed, 2 failed" });
    expect(exit.stdout).toContain(
      "first run: 1 passed, 1 failed\n  ✗ a.test.ts > broken\nsecond run: 1 passed, 1 failed",
    );
  });

  test("a test step that exits 1 with nothing counted failed, or dies before counting, counts as failed", async () => {
    const dir = project("silent-failures", { "a.test.ts": PASSING });
    const exit = await runner(
      [
        vitestStep("vitest"),
        { name: "exits 1, counted 0 failed", command: node(WRITES_PASSING_COUNTS_THEN_EXITS_1), countsTests: true },
        { name: "killed", command: node("process.kill(process.pid, 'SIGKILL')"), countsTests: true },
      ],
      dir,
    );
    expect(exit).toMatchObject({ status: 1, lastLine: "2 passed, 2 failed" });
    expect(exit.stdout).toContain(
      "exits 1, counted 0 failed: 1 passed, 1 failed\n  ✗ exits 1, counted 0 failed: exit 1 with no failure counted",
    );
    expect(exit.stdout).toContain("killed: failed (killed by SIGKILL)");
  });

  test("a step that cannot run (a Node version not installed) counts as failed", async () => {
    const dir = project("missing-node", { "a.test.ts": PASSING });
    const missing = { ...vitestStep("node 99"), missing: "Node 99 is not installed" };
    const exit = await runner([vitestStep("vitest"), missing], dir);
    expect(exit).toMatchObject({ status: 1, lastLine: "1 passed, 1 failed" });
    expect(exit.stdout).toContain("node 99: not run: Node 99 is not installed");
  });

  test("when every step passes, the line says 0 failed and the exit code is 0", async () => {
    const dir = project("all-pass", { "a.test.ts": PASSING });
    const exit = await runner([{ name: "build", command: node(""), required: true }, vitestStep("vitest")], dir);
    expect(exit).toMatchObject({ status: 0, lastLine: "1 passed, 0 failed" });
  });
});

describe.concurrent("the unit project's guard", () => {
  const guarded = (name: string, body: string) =>
    project(name, { "a.test.ts": source(`import { test } from "vitest";`, body) }, [UNIT_GUARD]);

  test("a unit test that starts a process fails, naming the call and the file name to take", async () => {
    const dir = guarded(
      "spawns",
      `test("runs true", async () => { (await import("node:child_process")).execFileSync("true"); });`,
    );
    const exit = await run([process.execPath, VITEST, "run", "--reporter=default"], dir, { NO_COLOR: "1" });
    expect(exit.status).toBe(1);
    expect(exit.stdout + exit.stderr).toContain(`called execFileSync("true"): name its file *.integration.test.ts`);
  });

  test("a unit test that reads a package's dist/ fails", async () => {
    const built = join(ROOT, "packages", "hook-pin", "dist", "carryover-pin.cjs");
    const dir = guarded(
      "reads-dist",
      `test("looks", async () => { (await import("node:fs")).existsSync(${JSON.stringify(built)}); });`,
    );
    expect(await vitest(dir)).toMatchObject({ status: 1, lastLine: "0 passed, 1 failed" });
  });

  test("a unit test that does neither passes", async () => {
    const dir = guarded("in-process", `test("adds", async () => { (await import("node:fs")).existsSync("/tmp"); });`);
    expect(await vitest(dir)).toMatchObject({ status: 0, lastLine: "1 passed, 0 failed" });
  });
});
