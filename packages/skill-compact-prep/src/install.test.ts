import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installSkill } from "../scripts/install-skill.mjs";

let root: string;
let packageDir: string;
let skillsDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "carryover-install-skill-"));
  packageDir = join(root, "pkg");
  skillsDir = join(root, "skills");
  mkdirSync(join(packageDir, "skill"), { recursive: true });
  mkdirSync(join(packageDir, "dist"));
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../package.json"), "utf8"));
  writeFileSync(
    join(packageDir, "package.json"),
    JSON.stringify({ name: manifest.name, carryover: manifest.carryover }),
  );
  writeFileSync(join(packageDir, "skill/SKILL.md"), "run carryover-state init\n");
  writeFileSync(join(packageDir, "dist/carryover-state.cjs"), "#!/usr/bin/env node\n", { mode: 0o755 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("installSkill (the package's carryover field)", () => {
  it("puts SKILL.md and an executable carryover-state side by side in <skills>/compact-prep", () => {
    const { dir } = installSkill(skillsDir, { packageDir });
    expect(dir).toBe(join(skillsDir, "compact-prep"));
    expect(readFileSync(join(dir, "SKILL.md"), "utf8")).toBe("run carryover-state init\n");
    expect(statSync(join(dir, "carryover-state")).mode & 0o777).toBe(0o755);
  });

  it("pins the skill dir to CommonJS so the extensionless state CLI runs under a type:module package.json", () => {
    const { dir } = installSkill(skillsDir, { packageDir });
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual({ type: "commonjs" });
  });

  it("replaces its own earlier install but never someone else's compact-prep without force", () => {
    installSkill(skillsDir, { packageDir });
    installSkill(skillsDir, { packageDir });
    writeFileSync(join(skillsDir, "compact-prep/SKILL.md"), "my own skill\n");
    expect(() => installSkill(skillsDir, { packageDir })).toThrow(/SKILL\.md is not carryover's/);
    expect(readFileSync(join(skillsDir, "compact-prep/SKILL.md"), "utf8")).toBe("my own skill\n");
    installSkill(skillsDir, { packageDir, force: true });
    expect(readFileSync(join(skillsDir, "compact-prep/SKILL.md"), "utf8")).toContain("carryover-state");
  });

  it("says to build first when the executable is missing", () => {
    rmSync(join(packageDir, "dist"), { recursive: true });
    expect(() => installSkill(skillsDir, { packageDir })).toThrow(/dist\/carryover-state\.cjs is missing: build first/);
  });
});
