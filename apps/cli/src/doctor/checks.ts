import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { claudeDir, homeDir, isTruthy, logPath } from "@carryover/core";
import { type Context, hookOfExecutable } from "../context.ts";
import { linkedNode, MIN_NODE_MAJOR, nodeMajor, nodeOnPath, nodeVersion } from "../install/node.ts";
import { BIN_GUARD, BIN_GUARD_FILE } from "../install/plan-executables.ts";
import { tildify } from "../output/display.ts";
import { STATUS_LINE_EVENT, sha256Of } from "../release/manifest.ts";
import { LAUNCHER, listHandlers, ownedRun, SH } from "../settings/handlers.ts";
import type { InstalledSite, Layer } from "../settings/layers.ts";
import { readManagedSettings } from "../settings/managed.ts";
import { foreignStatusLine, isStatusLineObject } from "../settings/statusline-slot.ts";

export interface Check {
  status: "ok" | "warn" | "fail";
  title: string;
  /** What to do about a warn or fail. */
  fix?: string | undefined;
}

export const ok = (title: string): Check => ({ status: "ok", title });
export const warn = (title: string, fix: string): Check => ({ status: "warn", title, fix });
export const fail = (title: string, fix: string): Check => ({ status: "fail", title, fix });

/**
 * The Node this CLI runs on, and the one the hooks start: the link the installer left beside the
 * executables (their sh prelude's first choice), else the first `node` on PATH. Claude Code's NODE_OPTIONS
 * reaches a hook only in the older `node <file>` registration.
 */
export function nodeChecks(context: Context, layers: readonly Layer[]): Check[] {
  const checks: Check[] = [];
  const running = process.version;
  checks.push(
    nodeMajor(running) >= MIN_NODE_MAJOR
      ? ok(`node ${running}`)
      : fail(`node ${running} is older than ${MIN_NODE_MAJOR}`, `install Node.js ${MIN_NODE_MAJOR} or newer`),
  );
  const fix =
    `install Node.js ${MIN_NODE_MAJOR}+ where Claude Code finds it, ` +
    "then run carryover install again: it links that one";
  const linked = linkedNode(context.binDir);
  const linkedVersion = linked ? nodeVersion(linked) : null;
  const onPath = nodeOnPath(context.env.PATH);
  const pathVersion = onPath ? nodeVersion(onPath) : null;
  const pathUsable = pathVersion !== null && nodeMajor(pathVersion) >= MIN_NODE_MAJOR;
  const log = tildify(logPath(context.env), context.env);
  if (linked && linkedVersion && nodeMajor(linkedVersion) >= MIN_NODE_MAJOR) {
    checks.push(ok(`hooks start node ${linkedVersion}: ${tildify(linked, context.env)}, linked beside them`));
  } else if (linked && pathUsable) {
    const why = linkedVersion ? `is ${linkedVersion}, older than ${MIN_NODE_MAJOR}` : "is gone";
    checks.push(
      warn(
        `the Node linked for the hooks (${linked}) ${why}: they start node ${pathVersion} from PATH instead`,
        "carryover install <your hooks> again links the one on PATH",
      ),
    );
  } else if (linked) {
    const state = linkedVersion ? `is ${linkedVersion}` : "is gone";
    checks.push(
      fail(
        `the Node linked for the hooks (${linked}) ${state} and PATH has no node ${MIN_NODE_MAJOR}+: ` +
          `every hook does nothing, one line each in ${log}`,
        fix,
      ),
    );
  } else if (!onPath) {
    checks.push(
      fail(
        `no \`node\` on PATH and none linked beside the hooks: every hook does nothing, one line each in ${log}`,
        fix,
      ),
    );
  } else if (!pathUsable) {
    checks.push(fail(`the node on PATH is ${pathVersion ?? "not runnable"}: the hooks need ${MIN_NODE_MAJOR}+`, fix));
  } else if (pathVersion !== running) checks.push(ok(`hooks start node ${pathVersion} from PATH`));
  const oldForm = layers
    .flatMap((layer) => (layer.doc ? listHandlers(layer.doc.value) : []))
    .filter((site) => {
      const launcher = ownedRun(site.handler, context.owner)?.launcher;
      return launcher !== undefined && launcher !== SH && launcher !== "sh";
    });
  for (const name of ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"]) {
    if (context.env[name] === undefined) continue;
    if (oldForm.length > 0 && LAUNCHER === SH) {
      checks.push(
        warn(
          `${name} is set and reaches the ${oldForm.length} carryover hook(s) still registered as node <file>`,
          "carryover install <your hooks> again registers them through /bin/sh, which starts Node without it",
        ),
      );
    } else
      checks.push(
        ok(`${name} is set; the hooks start Node without it (the status line hands it to the command it chains)`),
      );
  }
  return checks;
}

export function settingsFileChecks(layers: readonly Layer[]): Check[] {
  return layers.flatMap((layer) =>
    layer.error ? [fail(layer.error, "Claude Code cannot read that file either")] : [],
  );
}

/** Every carryover executable the record lists or settings run. */
function executableNames(context: Context, sites: readonly InstalledSite[]): string[] {
  return [
    ...new Set([...Object.keys(context.installed.record.executables), ...sites.map((site) => site.executable)]),
  ].sort();
}

/** Every carryover executable that settings run or the record lists: present, executable, the bytes installed. */
export function executableChecks(context: Context, sites: readonly InstalledSite[]): Check[] {
  const record = context.installed.record.executables;
  const names = executableNames(context, sites);
  const checks: Check[] = [];
  if (names.length === 0) return [warn("no carryover hook is installed", "carryover install --recommended")];
  let guard: string | null = null;
  try {
    guard = readFileSync(join(context.binDir, BIN_GUARD_FILE), "utf8");
  } catch {
    // checked below
  }
  if (guard !== BIN_GUARD)
    checks.push(
      fail(
        `${tildify(join(context.binDir, BIN_GUARD_FILE), context.env)} is missing or changed: ` +
          'a "type":"module" package.json above it would break the hooks',
        "carryover install <any installed hook> writes it again",
      ),
    );
  for (const name of names) {
    const hook = hookOfExecutable(context, name) ?? name;
    const path = join(context.binDir, name);
    const shown = tildify(path, context.env);
    const reinstall = `carryover install ${hook}`;
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      checks.push(fail(`${shown} is missing`, reinstall));
      continue;
    }
    if ((statSync(path).mode & 0o111) === 0) {
      checks.push(fail(`${shown} is not executable`, `chmod +x ${shown}, or ${reinstall}`));
      continue;
    }
    const expected =
      record[name]?.sha256 ??
      context.release.entries.flatMap((entry) => entry.executables).find((executable) => executable.name === name)
        ?.sha256;
    if (expected && sha256Of(data) !== expected) {
      checks.push(fail(`${shown} changed since it was installed (sha256 differs)`, reinstall));
      continue;
    }
    const shipped = context.release.entries.find((entry) => entry.name === hook);
    const installedVersion = record[name]?.version;
    if (shipped && installedVersion && shipped.version !== installedVersion)
      checks.push(warn(`${hook} ${installedVersion} is installed; this release has ${shipped.version}`, reinstall));
    else
      checks.push(
        ok(
          `${hook}${installedVersion ? ` ${installedVersion}` : ""}: ${shown} present, executable, sha256 as installed`,
        ),
      );
  }
  return checks;
}

/** Hooks the record says were put in a settings file of this project must still be registered there. */
export function registrationChecks(
  context: Context,
  layers: readonly Layer[],
  sites: readonly InstalledSite[],
): Check[] {
  const checks: Check[] = [];
  for (const layer of layers) {
    const file = context.installed.record.files[layer.paths.settingsPath];
    if (!file || !layer.doc) continue;
    for (const hook of file.hooks) {
      const entry = context.release.entries.find((candidate) => candidate.name === hook);
      const executables = new Set(
        Object.entries(context.installed.record.executables)
          .filter(([, executable]) => executable.hook === hook)
          .map(([name]) => name),
      );
      const here = sites.filter(
        (site) => site.settingsPath === layer.paths.settingsPath && executables.has(site.executable),
      );
      const missing = (entry?.registrations ?? []).filter(
        (registration) =>
          !here.some(
            (site) =>
              site.event === registration.event &&
              (registration.event === STATUS_LINE_EVENT || (site.matcher ?? "") === (registration.matcher ?? "")),
          ),
      );
      const where = tildify(layer.paths.settingsPath, context.env);
      if (here.length === 0 || missing.length > 0) {
        const what = missing.length > 0 ? missing.map((registration) => registration.event).join(", ") : "its entries";
        checks.push(
          fail(`${hook}: ${what} missing from ${where}`, `carryover install ${hook} --scope ${layer.paths.scope}`),
        );
      } else checks.push(ok(`${hook} registered in ${where}`));
    }
  }
  return checks;
}

/** `disableAllHooks` anywhere, `allowManagedHooksOnly` in managed settings: carryover's hooks would never run. */
export function switchChecks(context: Context, layers: readonly Layer[], installed: boolean): Check[] {
  const checks: Check[] = [];
  const managed = readManagedSettings(context.io.managedSettingsDir);
  for (const file of managed)
    if (file.error) checks.push(warn(file.error, "ask whoever manages this machine's Claude Code settings"));
  for (const layer of layers) {
    if (layer.doc?.value.disableAllHooks === true) {
      checks.push(
        fail(
          `disableAllHooks is true in ${tildify(layer.paths.settingsPath, context.env)}: no hook runs`,
          `remove "disableAllHooks" from ${tildify(layer.paths.settingsPath, context.env)}`,
        ),
      );
    }
  }
  for (const file of managed) {
    if (file.value?.disableAllHooks === true)
      checks.push(
        fail(
          `disableAllHooks is true in managed settings ${file.path}: no hook runs`,
          "ask whoever manages this machine's Claude Code settings",
        ),
      );
    if (file.value?.allowManagedHooksOnly === true && installed) {
      checks.push(
        fail(
          `allowManagedHooksOnly is true in ${file.path}: hooks from settings.json do not run`,
          "ask your administrator to add carryover's hooks to managed settings, or to enable carryover's plugins there",
        ),
      );
    }
  }
  if (checks.length === 0) checks.push(ok("hooks are enabled (no disableAllHooks, no allowManagedHooksOnly)"));
  return checks;
}

/** Who shows the status line: the highest layer that sets one wins (managed, local, project, user). */
export function statusLineChecks(context: Context, layers: readonly Layer[], sites: readonly InstalledSite[]): Check[] {
  const managed = readManagedSettings(context.io.managedSettingsDir).filter((file) =>
    isStatusLineObject(file.value?.statusLine),
  );
  const owners = [
    ...layers
      .filter((layer) => isStatusLineObject(layer.doc?.value.statusLine))
      .map((layer) => ({
        where: tildify(layer.paths.settingsPath, context.env),
        scope: layer.paths.scope as string,
        value: layer.doc!.value.statusLine,
      })),
    ...managed.map((file) => ({ where: file.path, scope: "managed", value: file.value!.statusLine })),
  ];
  const owner = owners.at(-1);
  const ours = sites.filter((site) => site.event === STATUS_LINE_EVENT);
  if (!owner) return ours.length > 0 ? [] : [ok("status line slot: empty")];
  const foreign = foreignStatusLine(owner.value, context.owner);
  if (!foreign) return [ok(`status line slot: carryover's statusline (${owner.where})`)];
  const title = `status line slot: \`${String(foreign.command)}\` from ${owner.where}`;
  if (ours.length === 0) return [ok(title)];
  const fix =
    owner.scope === "managed"
      ? "managed settings own the status line; carryover's cannot show"
      : `carryover install statusline --scope ${owner.scope} (chains that status line)`;
  return [fail(`${title} hides carryover's statusline installed in ${ours.map((site) => site.scope).join(", ")}`, fix)];
}

/** Project and local hooks run only in a trusted folder (`~/.claude.json` projects[dir].hasTrustDialogAccepted). */
export function trustChecks(context: Context, sites: readonly InstalledSite[]): Check[] {
  const scopes = [...new Set(sites.filter((site) => site.scope !== "user").map((site) => site.scope))];
  if (scopes.length === 0) return [];
  const path = context.env.CLAUDE_CONFIG_DIR
    ? join(resolve(context.env.CLAUDE_CONFIG_DIR), ".claude.json")
    : join(homeDir(context.env), ".claude.json");
  let projects: Record<string, { hasTrustDialogAccepted?: boolean }> = {};
  try {
    projects = (JSON.parse(readFileSync(path, "utf8")) as { projects?: typeof projects }).projects ?? {};
  } catch {
    // unreadable: nothing trusted
  }
  for (let dir = context.projectDir; ; dir = dirname(dir)) {
    if (projects[dir]?.hasTrustDialogAccepted === true) return [ok(`${dir} is trusted: project hooks run`)];
    if (dirname(dir) === dir) break;
  }
  const named = scopes.join(" and ");
  return [
    warn(
      `carryover is installed in ${named} scope but ${context.projectDir} is not a trusted folder yet: ` +
        `Claude Code skips its ${named} hooks`,
      `start \`claude\` in ${context.projectDir} and accept the trust dialog`,
    ),
  ];
}

/** Auto-memory off (env or settings) leaves pre-compact's memory entry and memory-guard nothing to do. */
export function memoryChecks(context: Context, layers: readonly Layer[]): Check[] {
  const settingsEnv = layers
    .map((layer) => (layer.doc?.value.env as Record<string, unknown> | undefined)?.CLAUDE_CODE_DISABLE_AUTO_MEMORY)
    .filter((value) => typeof value === "string") as string[];
  const disabledBy = isTruthy(context.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY)
    ? "CLAUDE_CODE_DISABLE_AUTO_MEMORY in this environment"
    : settingsEnv.some(isTruthy)
      ? "CLAUDE_CODE_DISABLE_AUTO_MEMORY in settings.json env"
      : layers.some((layer) => layer.doc?.value.autoMemoryEnabled === false)
        ? "autoMemoryEnabled: false in settings"
        : null;
  if (!disabledBy)
    return [ok(`auto-memory is on (${tildify(join(claudeDir(context.env), "projects"), context.env)}/…/memory)`)];
  return [
    warn(
      `auto-memory is off (${disabledBy}): pre-compact's dated memory entry and memory-guard have nothing to work on`,
      "unset it if you want carryover's memory entries",
    ),
  ];
}

/** Skill files carryover installed: a missing one breaks the skill; a changed one is flagged (an edit, or damage). */
export function skillChecks(context: Context): Check[] {
  return Object.entries(context.installed.record.skills).map(([dir, skill]) => {
    const shown = tildify(dir, context.env);
    const hashes = skill.files.map((file) => ({ file, actual: hashOrNull(join(dir, file.path)) }));
    const missing = hashes.filter(({ actual }) => actual === null).map(({ file }) => file.path);
    const changed = hashes
      .filter(({ file, actual }) => actual !== null && actual !== file.sha256)
      .map(({ file }) => file.path);
    if (missing.length > 0)
      return fail(
        `skill ${skill.hook}: ${missing.join(", ")} missing from ${shown}`,
        `carryover install ${skill.hook}`,
      );
    if (changed.length > 0)
      return warn(
        `skill ${skill.hook}: ${changed.join(", ")} changed since install in ${shown}`,
        `carryover install ${skill.hook} --force puts the shipped files back`,
      );
    return ok(`skill ${skill.hook}: ${shown} as installed`);
  });
}

function hashOrNull(path: string): string | null {
  try {
    return sha256Of(readFileSync(path));
  } catch {
    return null;
  }
}
