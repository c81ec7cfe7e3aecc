import { join } from "node:path";
import {
  createSandbox,
  expectSuccess,
  expectTextInRequest,
  firstMainAfterCompaction,
  runAutoCompactInLoop,
  type Sandbox,
} from "@carryover/test-fixtures/e2e";
import { afterEach, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/carryover-pin.cjs");
const PROJECT_RULE = "PIN-PROJECT: the public API of src/api.ts stays backwards compatible.";
const USER_RULE = "PIN-USER: commit messages are in the imperative mood.";
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

it("on the real CLI the pinned text is in the request before the compaction and again right after it", async () => {
  const hook = { type: "command", command: BIN, timeout: 10 };
  sandbox = await createSandbox({
    settings: {
      hooks: {
        UserPromptSubmit: [{ hooks: [hook] }],
        SessionStart: [{ matcher: "compact", hooks: [hook] }],
      },
    },
    files: { ".claude/carryover/pinned.md": `${PROJECT_RULE}\n`, "~/.claude/carryover/pinned.md": `${USER_RULE}\n` },
  });
  const projectPin = join(sandbox.project, ".claude/carryover/pinned.md");
  const userPin = join(sandbox.home, ".claude/carryover/pinned.md");
  const pinned =
    `Pinned by the user in ${projectPin}:\n${PROJECT_RULE}\n\n` + `Pinned by the user in ${userPin}:\n${USER_RULE}`;

  expectSuccess(await runAutoCompactInLoop(sandbox));

  const requests = sandbox.mock.requests();
  const [first] = sandbox.mock.mainRequests();
  expectTextInRequest(first, `UserPromptSubmit hook additional context: ${pinned}`);
  const after = firstMainAfterCompaction(requests);
  expectTextInRequest(after, `SessionStart hook additional context: ${pinned}`);
  expect(sandbox.mock.errors()).toEqual([]);
});
