import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { publishablePackages } from "./packages.mjs";

const REPO = join(import.meta.dirname, "../..");
const CHANGESETS = join(REPO, ".changeset");

// `changeset version` stops on a changeset naming a package it does not know (a renamed one, a private one),
// and it is the first step of every release: find that here, when the changeset is written.
it("every pending changeset names published packages only", () => {
  const published = new Set(publishablePackages(REPO).map(({ pkg }) => pkg.name));
  const unknown: string[] = [];
  for (const file of readdirSync(CHANGESETS).filter((name) => name.endsWith(".md") && name !== "README.md")) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(CHANGESETS, file), "utf8"))?.[1] ?? "";
    for (const line of front.split("\n").filter((text) => text.trim() !== "")) {
      const name = /^\s*["']?([^"':]+)["']?\s*:\s*(?:major|minor|patch)\s*$/.exec(line)?.[1];
      if (!name || !published.has(name)) unknown.push(`${file}: ${line.trim()}`);
    }
  }
  expect(unknown, `published packages: ${[...published].join(", ")}`).toEqual([]);
});
