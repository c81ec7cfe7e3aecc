import { join } from "node:path";
import type { Change } from "../../install/changes.ts";
import { BIN_GUARD, BIN_GUARD_FILE } from "../../install/plan-executables.ts";
import { registrationLabel } from "../../output/display.ts";
import { type ManifestEntry, type Release, STATUS_LINE_EVENT, verifiedFile } from "../../release/manifest.ts";
import { handlerFor } from "../../settings/handlers.ts";

type Json = Record<string, unknown>;

const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";

/**
 * `hooks/hooks.json`: the entry's registrations in exec form as in settings (`/bin/sh`, the plugin's own copy of
 * the executable and the event; Claude Code 2.1.332 expands ${CLAUDE_PLUGIN_ROOT} inside `args`).
 */
function pluginHooks(entry: ManifestEntry): Json | null {
  const executable = entry.executables[0];
  const registrations = entry.registrations.filter(
    (registration) => registration.event !== STATUS_LINE_EVENT && registration.timeout !== undefined,
  );
  if (!executable || registrations.length === 0) return null;
  const hooks: Record<string, Json[]> = {};
  for (const registration of registrations) {
    const handler = handlerFor(`${PLUGIN_ROOT}/bin/${executable.name}`, registration);
    const groups = hooks[registration.event] ?? [];
    hooks[registration.event] = groups;
    groups.push({ ...(registration.matcher !== undefined ? { matcher: registration.matcher } : {}), hooks: [handler] });
  }
  return { description: entry.description, hooks };
}

function pluginReadme(entry: ManifestEntry, marketplace: string): string {
  const lines = [`# ${entry.name}`, "", entry.description, ""];
  const statusLine = entry.registrations.some((registration) => registration.event === STATUS_LINE_EVENT);
  if (statusLine) {
    lines.push(
      "Claude Code plugins cannot set the main status line, so this plugin only carries the executable.",
      "Install the status line with the carryover CLI instead; it chains the status line you already have:",
      "",
      "```sh",
      `carryover install ${entry.name}`,
      "```",
      "",
    );
  }
  const events = entry.registrations
    .filter((registration) => registration.event !== STATUS_LINE_EVENT)
    .map(registrationLabel);
  if (events.length > 0) lines.push(`Runs on: ${events.join(", ")}.`, "");
  for (const skill of entry.skills) lines.push(`Skill: \`/${entry.name}:${skill.name}\`.`, "");
  const install = `claude plugin install ${entry.name}@${marketplace}`;
  lines.push(`Install: \`${install}\`. Configure with \`carryover config ${entry.name}\`.`, "");
  return lines.join("\n");
}

const text = (path: string, value: string): Change => ({ kind: "copy", path, data: Buffer.from(value), mode: 0o644 });
const jsonFile = (path: string, value: unknown): Change => text(path, `${JSON.stringify(value, null, 2)}\n`);

/**
 * A plugin marketplace dir: `.claude-plugin/marketplace.json` and one plugin per hook or skill under
 * `plugins/<name>/` with its manifest, `hooks/hooks.json`, its executables and skills. Claude Code 2.1.332
 * runs a directory marketplace's plugins from this dir (not a cache copy), so it must stay where it is.
 */
export function planMarketplace(release: Release, outDir: string, name: string): Change[] {
  const changes: Change[] = [];
  const plugins: Json[] = [];
  for (const entry of release.entries) {
    const root = join(outDir, "plugins", entry.name);
    changes.push(
      jsonFile(join(root, ".claude-plugin", "plugin.json"), {
        name: entry.name,
        version: entry.version,
        description: entry.description,
        author: { name: "carryover" },
        license: "MIT",
      }),
    );
    const hooks = pluginHooks(entry);
    if (hooks) changes.push(jsonFile(join(root, "hooks", "hooks.json"), hooks));
    if (entry.executables.length > 0) changes.push(text(join(root, "bin", BIN_GUARD_FILE), BIN_GUARD));
    for (const executable of entry.executables) {
      changes.push({
        kind: "copy",
        path: join(root, "bin", executable.name),
        data: verifiedFile(release, executable.file, executable.sha256),
        mode: 0o755,
      });
    }
    for (const skill of entry.skills) {
      for (const file of skill.files) {
        changes.push({
          kind: "copy",
          path: join(root, "skills", skill.name, file.path),
          data: verifiedFile(release, join(skill.dir, file.path), file.sha256),
          mode: file.mode,
        });
      }
    }
    changes.push(text(join(root, "README.md"), pluginReadme(entry, name)));
    plugins.push({
      name: entry.name,
      source: `./plugins/${entry.name}`,
      description: entry.description,
      version: entry.version,
    });
  }
  changes.push(
    jsonFile(join(outDir, ".claude-plugin", "marketplace.json"), { name, owner: { name: "carryover" }, plugins }),
  );
  return changes;
}
