// Test-only hook and status line command: logs its stdin JSON and answers with recognisable text.
// Usage: probe-hook.cjs [statusline] [<log.jsonl>]   (log path defaults to $PROBE_LOG; no log when neither is set)
import { appendFileSync, readFileSync } from "node:fs";

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
