// The scan as a hook runs it: core's scanTranscript, bundled like a hook. Prints what it found.
import { writeSync } from "node:fs";
import { scanTranscript } from "../../packages/core/src/index.ts";

const path = process.argv[2];
if (!path) {
  writeSync(2, "usage: carryover-scan <transcript.jsonl>\n");
  process.exit(2);
}
scanTranscript(path).then((facts) => {
  const summary = {
    bytesRead: facts.bytesRead,
    compactions: facts.compactions.length,
    lastUserRequest: facts.lastUserRequest,
    files: facts.filesChanged.length,
    commands: facts.commands.length,
    errors: facts.errors.length,
  };
  writeSync(1, `${JSON.stringify(summary)}\n`);
});
