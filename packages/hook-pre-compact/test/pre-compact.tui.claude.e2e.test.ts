import { join } from "node:path";
import {
  compactionRequest,
  createSandbox,
  hasTmux,
  lastMainRequest,
  mockScript,
  requestText,
  type Sandbox,
  startTui,
  waitFor,
} from "@carryover/test-fixtures/e2e";
import { afterEach, beforeAll, expect, it } from "vitest";

const PRE_COMPACT = join(import.meta.dirname, "../dist/carryover-pre-compact.cjs");
const POST_COMPACT = join(import.meta.dirname, "../../hook-post-compact/dist/carryover-post-compact.cjs");
const HEAD = /carryover pre-compact: what the summary of this compaction \(manual, ([\d-]+ [\d:]+) UTC\) must hold/g;
// Claude Code 2.1.332 dims each line of a hook's output it echoes after /compact.
const DIM = /\u001b\[2m|\u001b\[22m/g;

let sandbox: Sandbox | undefined;
beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is not installed: the TUI e2e tests need it (apt-get install -y tmux)");
});
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** What the conversation after a manual /compact records of PreCompact's stdout (`<local-command-stdout>`). */
function echoedOutput(text: string): string {
  const echo = /<local-command-stdout>([\s\S]*?)<\/local-command-stdout>/.exec(text)?.[1] ?? "";
  const ours = echo.indexOf("carryover pre-compact:");
  return ours === -1 ? "" : echo.slice(ours).replace(DIM, "");
}

it("in the TUI, what /compact records of its output is short, plain, and no later compaction belies", async () => {
  sandbox = await createSandbox({
    settings: {
      hooks: {
        PreCompact: [{ hooks: [{ type: "command", command: PRE_COMPACT, timeout: 60 }] }],
        PostCompact: [{ hooks: [{ type: "command", command: POST_COMPACT, timeout: 10 }] }],
      },
    },
  });
  const box = sandbox;
  const tui = await startTui(box, { args: ["--allowedTools", "Bash,Write,Edit,Read"] });
  const write = { tool: "Write", input: { file_path: join(box.project, "notes.md"), content: "x\n" } };
  await tui.submit(`Write the notes ${mockScript([write, { text: "written" }])}`);
  await tui.waitForScreen(/written/);
  await tui.submit("/compact");
  await tui.waitForScreen(/Compacted/);

  await tui.submit("next step");
  const afterFirst = requestText(lastMainRequest(box.mock.requests()));
  const echoed = echoedOutput(afterFirst);
  expect(echoed).toMatch(HEAD);
  // Plain text of a few lines; nothing addressed to the agent; the compaction it is about is named.
  expect(echoed).not.toContain("\u001b");
  expect(echoed.length).toBeLessThan(1_500);
  expect(echoed).not.toMatch(/\b(Begin|Keep|Carry|Write|name these|Continue)\b/);

  await tui.submit("/compact");
  const second = await waitFor(
    () =>
      box.mock.compactionRequests().length > 1 ? requestText(compactionRequest(box.mock.requests(), 1)) : undefined,
    {
      description: "the second compaction request",
    },
  );
  const instructions = second.slice(second.lastIndexOf("Additional Instructions:"));
  const [first, current] = [...second.matchAll(HEAD)].map((match) => match[1]);
  // The first compaction's output, recorded in the conversation, and this compaction's own: each names its time.
  expect(first).toBeDefined();
  expect(current).toBeDefined();
  expect(instructions).toContain(`(manual, ${current} UTC)`);
  expect(instructions).toContain("what the earlier compaction of this session recorded");
  // That compaction is named by the time its own output gave, though its boundary line can fall in the next minute.
  expect(instructions).toContain(`The conversation opens with the latest one's summary (manual, ${first} UTC).`);
  expect(instructions).not.toContain("none yet");
  expect(box.mock.errors()).toEqual([]);
});
