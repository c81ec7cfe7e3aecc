import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { marketplace, marketplaceDrift } from "./marketplace.mjs";
import { publishablePackages } from "./packages.mjs";

const REPO = join(import.meta.dirname, "../..");

it("the committed .claude-plugin/marketplace.json is the one the packages generate", () => {
  expect(marketplaceDrift(REPO)).toBeNull();
});

it("one plugin per hook and one for the skill, each sourced from its npm package at its version", () => {
  const { name, plugins } = marketplace(REPO);
  expect(name).toBe("carryover");
  const packages = publishablePackages(REPO).filter(({ kind }) => kind !== "cli");
  expect(plugins.map((plugin: { name: string }) => plugin.name).sort()).toEqual(
    packages.map(({ pkg }) => pkg.carryover?.hook ?? pkg.carryover?.skill).sort(),
  );
  for (const { pkg } of packages) {
    const plugin = plugins.find((entry: { source: { package: string } }) => entry.source.package === pkg.name);
    expect(plugin, pkg.name).toMatchObject({ version: pkg.version, strict: false });
    expect(plugin.source).toEqual({ source: "npm", package: pkg.name, version: pkg.version });
  }
});

it("each hook runs the executable its package ships, in exec form, for each of its registrations", () => {
  for (const { pkg } of publishablePackages(REPO).filter(({ kind }) => kind === "hook")) {
    const plugin = marketplace(REPO).plugins.find((entry: { name: string }) => entry.name === pkg.carryover?.hook);
    const [executable] = Object.values(pkg.bin ?? {});
    expect(pkg.files).toContain(executable);
    const handlers = Object.entries(plugin.hooks ?? {}).flatMap(([event, matchers]) =>
      (matchers as Array<{ matcher?: string; hooks: unknown[] }>).flatMap(({ matcher, hooks }) =>
        hooks.map((hook) => ({ event, matcher, hook })),
      ),
    );
    expect(handlers).toEqual(
      (pkg.carryover?.registrations ?? []).map(({ event, matcher, if: condition, timeout }) => ({
        event,
        matcher,
        hook: {
          type: "command",
          command: "/bin/sh",
          args: [`\${CLAUDE_PLUGIN_ROOT}/${executable}`, event],
          ...(condition ? { if: condition } : {}),
          timeout,
        },
      })),
    );
  }
});

it("the skill plugin's dir holds SKILL.md and the state CLI it runs as ${CLAUDE_SKILL_DIR}/carryover-state", () => {
  const skill = marketplace(REPO).plugins.find((entry: { name: string }) => entry.name === "compact-prep");
  expect(skill.skills).toEqual(["./skill"]);
  const dir = join(REPO, "packages/skill-compact-prep/skill");
  expect(readFileSync(join(dir, "SKILL.md"), "utf8")).toContain('"${CLAUDE_SKILL_DIR}/carryover-state"');
  expect(readFileSync(join(dir, "carryover-state"), "utf8")).toMatch(/^#!\/bin\/sh\n/);
});
