import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { writeMarketplace } from "./marketplace.mjs";
import { publishFailure, releaseBlockers } from "./publish.mjs";

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

// npm's own words when the scope is someone else's (E404 on the PUT) or not the user's to publish to (E403).
it("a refused publish says the scope has to be an npm org of the publisher's, or to log in", () => {
  const registry = "https://registry.npmjs.org/";
  const notFound = [
    "npm error code E404",
    "npm error 404 Not Found - PUT https://registry.npmjs.org/@carryover%2fhook-pin - Not found",
    "npm error 404  '@carryover/hook-pin@0.2.0' is not in this registry.",
  ].join("\n");
  expect(publishFailure("@carryover/hook-pin", "0.2.0", registry, notFound)).toBe(
    "npm publish @carryover/hook-pin@0.2.0 failed: the @carryover scope is not yours on https://registry.npmjs.org/: " +
      "create the npm org carryover (or join it) first: npm error code E404 / " +
      "npm error 404 Not Found - PUT https://registry.npmjs.org/@carryover%2fhook-pin - Not found / " +
      "npm error 404  '@carryover/hook-pin@0.2.0' is not in this registry.",
  );
  const forbidden = "npm error code E403\nnpm error 403 You do not have permission to publish";
  expect(publishFailure("@carryover/hook-pin", "0.2.0", registry, forbidden)).toContain("the @carryover scope");
  const noLogin = "npm error code ENEEDAUTH\nnpm error need auth This command requires you to be logged in";
  expect(publishFailure("carryover", "0.2.0", registry, noLogin)).toMatch(
    /^npm publish carryover@0.2.0 failed: log in first: npm login --registry https:\/\/registry.npmjs.org\/: /,
  );
  expect(publishFailure("carryover", "0.2.0", registry, forbidden)).toBe(
    "npm publish carryover@0.2.0 failed: npm error code E403 / npm error 403 You do not have permission to publish",
  );
});
