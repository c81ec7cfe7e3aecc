import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type MockApi, type MockApiOptions, startMockApi } from "../mock-api/server.ts";
import { inheritedEnv } from "./env.ts";

const TEST_API_KEY = "sk-test-carryover-e2e-0123456789abcdef";

export interface SandboxOptions {
  /** Written to `$HOME/.claude/settings.json`. */
  settings?: Record<string, unknown>;
  /** File contents by path relative to the project (or to HOME with a `~/` prefix); committed in the first commit. */
  files?: Record<string, string>;
  /** Added to (and overriding) the sandbox env. */
  env?: Record<string, string>;
  mock?: MockApiOptions;
  /** Hands HOME, the project and the log dir to this uid (needs root), for runs `runPrint(…, { uid })`. */
  uid?: number;
}

export interface Sandbox {
  root: string;
  home: string;
  /** Git-initialised working directory Claude Code runs in. */
  project: string;
  claudeDir: string;
  settingsPath: string;
  /** Mock request log (`requests.jsonl`), usage override files, `probe.jsonl` ($PROBE_LOG). */
  logDir: string;
  probeLog: string;
  env: Record<string, string>;
  mock: MockApi;
  writeSettings(settings: Record<string, unknown>): void;
  /** `~/.claude/projects/<slug>/<sessionId>.jsonl` for this project. */
  transcriptPath(sessionId: string): string;
  /** Runs `dispose` during cleanup, before the directory is removed. */
  onCleanup(dispose: () => unknown): void;
  /** Stops what was registered, closes the mock, removes the directory unless CARRYOVER_E2E_KEEP=1. */
  cleanup(): Promise<void>;
}

/** A throwaway HOME + project + mock API, seeded so Claude Code 2.1.332 starts without any dialog. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "carryover-e2e-")));
  const home = join(root, "home");
  const project = join(root, "proj");
  const claudeDir = join(home, ".claude");
  const logDir = join(root, "log");
  const settingsPath = join(claudeDir, "settings.json");
  for (const dir of [claudeDir, project, logDir]) mkdirSync(dir, { recursive: true });

  const disposers: Array<() => unknown> = [];
  let mock: MockApi;
  try {
    writeFileSync(join(home, ".claude.json"), JSON.stringify(claudeJsonSeed(project), null, 2));
    writeJson(settingsPath, options.settings ?? {});
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const target = path.startsWith("~/") ? join(home, path.slice(2)) : join(project, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    initGit(project, home);
    if (options.uid !== undefined) {
      // mkdtemp made the root 0700: the other user must be able to pass through it.
      chmodSync(root, 0o711);
      for (const dir of [home, project, logDir]) chownTree(dir, options.uid);
    }
    mock = await startMockApi({ logDir, ...options.mock });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }

  const probeLog = join(logDir, "probe.jsonl");
  const env: Record<string, string> = {
    ...inheritedEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    ANTHROPIC_BASE_URL: mock.url,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    PROBE_LOG: probeLog,
    ...GIT_IDENTITY,
    ...options.env,
  };

  return {
    root,
    home,
    project,
    claudeDir,
    settingsPath,
    logDir,
    probeLog,
    env,
    mock,
    writeSettings: (settings) => writeJson(settingsPath, settings),
    transcriptPath: (sessionId) => join(claudeDir, "projects", projectSlug(project), `${sessionId}.jsonl`),
    onCleanup: (dispose) => disposers.push(dispose),
    cleanup: async () => {
      for (const dispose of disposers.reverse()) await dispose();
      await mock.close();
      if (process.env.CARRYOVER_E2E_KEEP === "1") console.log(`carryover e2e: kept sandbox ${root}`);
      else rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * The `~/.claude.json` keys that skip every first-run screen of the 2.1.332 TUI (print mode needs none):
 * onboarding (which otherwise probes api.anthropic.com and exits offline), the folder trust dialog, and the
 * "Detected a custom API key" prompt, which matches on the key's last 20 characters.
 */
function claudeJsonSeed(project: string, apiKey = TEST_API_KEY): Record<string, unknown> {
  return {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true } },
  };
}

/** Claude Code's directory name for a path: every char outside [a-zA-Z0-9] becomes `-` (paths ≤ 200 chars). */
export function projectSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, "-");
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "carryover e2e",
  GIT_AUTHOR_EMAIL: "e2e@carryover.invalid",
  GIT_COMMITTER_NAME: "carryover e2e",
  GIT_COMMITTER_EMAIL: "e2e@carryover.invalid",
};

function initGit(project: string, home: string): void {
  const env = { ...inheritedEnv(), HOME: home, ...GIT_IDENTITY };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, env, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "--no-gpg-sign", "-m", "init");
}

function chownTree(path: string, uid: number): void {
  lchownSync(path, uid, uid);
  if (lstatSync(path).isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), uid);
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
