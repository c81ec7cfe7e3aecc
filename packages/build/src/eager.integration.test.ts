import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildExecutable } from "./index.mjs";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-build-eager-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIN = [
  `import { readFileSync } from "node:fs";`,
  "function answer(text: string) { return `answer:${text.trim()}`; }",
  "function other(text: string) { return `other:${text.trim()}`; }",
  `const input = readFileSync(0, "utf8");`,
  `if (input.startsWith("fail")) throw new Error("asked to fail");`,
  `process.stdout.write(input.startsWith("other") ? other(input) : answer(input));`,
].join("\n");

/** A package whose `carryover` field names the inputs its executable is run on to find what to make eager. */
async function buildWithInputs(name: string, inputs: string[]) {
  const root = join(dir, name);
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "src/bin.ts"), BIN);
  const eager = inputs.map((text, i) => {
    writeFileSync(join(root, `input-${i}.txt`), text);
    return `input-${i}.txt`;
  });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name, carryover: { eager } }));
  return buildExecutable({ entry: "src/bin.ts", outfile: join(root, "dist/bin.cjs"), cwd: root });
}

const run = (file: string, input: string) => spawnSync(file, [], { input, encoding: "utf8" });

it("makes eager the functions the runs on its inputs called, and only those", async () => {
  const { outfile, bytes } = await buildWithInputs("some", ["question"]);
  const text = readFileSync(outfile, "utf8");
  expect(text).toMatch(/var (\w+)=\(function \1\(\w+\)\{return`answer:/);
  expect(text).toMatch(/[;}]function \w+\(\w+\)\{return`other:/);
  expect(run(outfile, "question")).toMatchObject({ status: 0, stdout: "answer:question", stderr: "" });
  expect(run(outfile, "other one")).toMatchObject({ status: 0, stdout: "other:other one", stderr: "" });
  expect(bytes).toBe(statSync(outfile).size);
  const meta = JSON.parse(readFileSync(`${outfile}.meta.json`, "utf8"));
  expect(Object.values(meta.outputs as Record<string, { bytes: number }>)[0]?.bytes).toBe(bytes);
});

it("takes every input's run", async () => {
  const { outfile } = await buildWithInputs("both", ["question", "other one"]);
  expect(readFileSync(outfile, "utf8")).toMatch(/var (\w+)=\(function \1\(\w+\)\{return`other:/);
});

it("fails the build when a run on an input fails, saying which", async () => {
  await expect(buildWithInputs("failing", ["question", "fail now"])).rejects.toThrow(
    /bin\.cjs < .*input-1\.txt: exit 1, .*asked to fail/s,
  );
});
