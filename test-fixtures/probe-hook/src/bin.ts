// Test-only hook and status line command: logs its stdin JSON and answers with recognisable text.
// Usage: probe-hook.cjs [statusline] [<log.jsonl>]   (log path defaults to $PROBE_LOG; no log when neither is set)
// With PROBE_TRANSCRIPTS=<dir>, a hook also copies the transcript as it is at that moment to <dir>/<n>-<event>.jsonl.
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const CONTEXT_EVENTS = new Set(["UserPromptSubmit", "SessionStart"]);

const args = process.argv.slice(2);
const statusline = args[0] === "statusline";
const logPath = (statusline ? args[1] : args[0]) ?? process.env.PROBE_LOG;

const raw = readFileSync(0, "utf8");
let payload: Record<string, unknown>;
try {
  payload = JSON.parse(raw) as Record<string, unknown>;
} catch {
  payload = { unparsed: raw };
}
const copies = process.env.PROBE_TRANSCRIPTS;
if (copies && !statusline && typeof payload.transcript_path === "string" && existsSync(payload.transcript_path)) {
  const n = String(readdirSync(copies).length + 1).padStart(3, "0");
  const copy = join(copies, `${n}-${process.pid}-${String(payload.hook_event_name)}.jsonl`);
  copyFileSync(payload.transcript_path, copy);
  payload.probe_transcript_copy = copy;
}
if (logPath) appendFileSync(logPath, `${JSON.stringify(payload)}\n`);

if (statusline) {
  const window = payload.context_window as { used_percentage?: number | null } | undefined;
  process.stdout.write(`PROBE-STATUS ${window?.used_percentage ?? "-"}\n`);
} else {
  const event = String(payload.hook_event_name);
  if (CONTEXT_EVENTS.has(event)) {
    const detail = typeof payload.source === "string" ? ` ${payload.source}` : "";
    const additionalContext = `PROBE-CONTEXT ${event}${detail}`;
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } }));
  }
}
