import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExecutable } from "./index.mjs";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "carryover-build-deferred-"));
  const files: Record<string, string> = {
    "shared.ts": `export const greet = (who: string) => "hello " + who;\n`,
    "lazy.ts": [
      `import { greet } from "./shared.ts";`,
      `console.log("lazy module evaluated");`,
      `export const LAZY_MARK = "deferred · text";`,
      `export function lazyWork(): string { return greet("from the deferred part"); }`,
      `export function fail(): never { throw new Error("deferred failure"); }`,
    ].join("\n"),
    "entry.ts": [
      `import { greet } from "./shared.ts";`,
      `const mode = process.argv[2];`,
      `if (mode === "fast") console.log(greet("fast path"));`,
      `else if (mode === "lazy") import("./lazy.ts").then((m) => console.log(m.lazyWork(), m.LAZY_MARK));`,
      `else import("./lazy.ts").then((m) => m.fail()).catch((error: Error) => console.log(error.stack));`,
    ].join("\n"),
    "unused-import.ts": [`export const used = 1;`, `export const unused = () => import("./lazy.ts");`].join("\n"),
    "shaken.ts": `import { used } from "./unused-import.ts";\nconsole.log("used", used);\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (file: string, ...args: string[]) => spawnSync(file, args, { encoding: "utf8" });
const fastPart = (file: string) => readFileSync(file, "utf8").split("function __carryoverDeferred()")[0] as string;

describe("buildExecutable: a dynamic import of the entry's own code is deferred", () => {
  it("carries the imported module only in a comment, evaluated on the import and not before", async () => {
    const { outfile } = await buildExecutable({ entry: join(dir, "entry.ts"), outfile: join(dir, "out/entry.cjs") });
    expect(fastPart(outfile)).not.toContain("lazy module evaluated");
    expect(readFileSync(outfile, "utf8")).toContain("lazy module evaluated");
    expect(run(outfile, "fast")).toMatchObject({ status: 0, stdout: "hello fast path\n", stderr: "" });
    expect(run(outfile, "lazy")).toMatchObject({
      status: 0,
      stdout: "lazy module evaluated\nhello from the deferred part deferred · text\n",
    });
  });

  it("is all ASCII (V8 keeps a one-byte source), and names the deferred code in stack traces", async () => {
    const { outfile } = await buildExecutable({ entry: join(dir, "entry.ts"), outfile: join(dir, "out/entry.cjs") });
    expect(/[^\x00-\x7f]/.test(readFileSync(outfile, "latin1"))).toBe(false);
    expect(run(outfile, "fail").stdout).toMatch(/Error: deferred failure\n\s+at \S+ \(entry-deferred\.js:\d+:\d+\)/);
  });

  it("lists the deferred modules in the metafile, for the release's changeset check", async () => {
    const { outfile } = await buildExecutable({ entry: join(dir, "entry.ts"), outfile: join(dir, "out/entry.cjs") });
    const meta = JSON.parse(readFileSync(`${outfile}.meta.json`, "utf8"));
    const inputs = Object.keys((Object.values(meta.outputs)[0] as { inputs: Record<string, unknown> }).inputs);
    expect(inputs.map((input) => input.split("/").at(-1)).sort()).toEqual(["entry.ts", "lazy.ts", "shared.ts"]);
  });

  it("defers nothing where the package.json's carryover field says deferred: false", async () => {
    const inline = join(dir, "inline");
    mkdirSync(inline, { recursive: true });
    writeFileSync(join(inline, "package.json"), JSON.stringify({ carryover: { deferred: false } }));
    const entry = join(dir, "entry.ts");
    const { outfile } = await buildExecutable({ entry, outfile: join(inline, "out/entry.cjs"), cwd: inline });
    expect(readFileSync(outfile, "utf8")).not.toContain("__carryoverDeferred");
    expect(run(outfile, "lazy")).toMatchObject({
      status: 0,
      stdout: "lazy module evaluated\nhello from the deferred part deferred \u00b7 text\n",
    });
  });

  it("carries nothing for an import that tree shaking removed", async () => {
    const { outfile } = await buildExecutable({ entry: join(dir, "shaken.ts"), outfile: join(dir, "out/shaken.cjs") });
    const text = readFileSync(outfile, "utf8");
    expect(text).not.toContain("__carryoverDeferred");
    expect(text).not.toContain("lazy module evaluated");
    expect(run(outfile)).toMatchObject({ status: 0, stdout: "used 1\n" });
  });
});
