import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { writeMarketplace } from "./marketplace.mjs";
import { releaseBlockers } from "./publish.mjs";

let repo: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

function hook(version: string): void {
  write(
    "packages/hook-pin/package.json",
    JSON.stringify({
      name: "@carryover/hook-pin",
      version,
      description: "pins",
      bin: { "carryover-pin": "dist/carryover-pin.cjs" },
      files: ["dist/carryover-pin.cjs", "README.md"],
      carryover: { hook: "pin", registrations: [{ event: "UserPromptSubmit", timeout: 10 }] },
    }),
  );
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "carryover-release-"));
  hook("0.1.0");
  write(".changeset/README.md", "# Changesets\n");
  writeMarketplace(repo);
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

it("releases when every changeset is versioned and the marketplace matches the packages", () => {
  expect(releaseBlockers(repo)).toEqual([]);
});

it("refuses changesets not yet versioned: their change would go out under the old version", () => {
  write(".changeset/brave-pins.md", '---\n"@carryover/hook-pin": patch\n---\n\nfix\n');
  expect(releaseBlockers(repo)).toEqual([
    "1 changesets are not versioned yet (brave-pins.md): run pnpm version-packages, commit",
  ]);
});

it("refuses a marketplace.json that names other versions than the packages have", () => {
  hook("0.2.0");
  expect(releaseBlockers(repo)).toEqual([
    ".claude-plugin/marketplace.json does not match the packages: run node scripts/release.mjs marketplace, commit it",
  ]);
  writeMarketplace(repo);
  expect(releaseBlockers(repo)).toEqual([]);
});
