import { tagText } from "./_content.ts";

/** What a user turn's text is, for finding the user's last real request. */
export type UserText =
  | { kind: "prompt"; text: string }
  /** A slash command as typed; `local` until it turns out to reach the model. */
  | { kind: "command"; text: string }
  /** `<local-command-stdout>`: the command just before was handled by Claude Code itself (`/clear`, `/effort`). */
  | { kind: "local-output" }
  | { kind: "none" };

const NONE: UserText = { kind: "none" };

// Claude Code's own user lines: outputs of commands and bash mode, notifications, hook text (1.x).
const NOT_TYPED =
  /^<(bash-std(out|err)|local-command-(caveat|stderr)|task-notification|user-prompt-submit-hook|system-reminder)/;
// The compact-prep turn is carryover's own, never the request a snapshot or the changes log should name.
const OWN_COMMANDS = new Set(["/compact-prep"]);
// Claude Code's built-in commands that it runs itself, without the model. Their output usually follows as a
// user line (`<local-command-stdout>`), but 2.1.96 writes /clear's as a system line, which is not read.
const LOCAL_COMMANDS = new Set([
  "/clear",
  "/compact",
  "/config",
  "/context",
  "/cost",
  "/doctor",
  "/effort",
  "/exit",
  "/export",
  "/help",
  "/hooks",
  "/login",
  "/logout",
  "/mcp",
  "/memory",
  "/model",
  "/permissions",
  "/resume",
  "/status",
  "/theme",
  "/usage",
  "/vim",
]);

/** Reads the text of a user line that is not a tool result, meta line or summary. */
export function userText(text: string): UserText {
  const trimmed = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
  if (!trimmed || trimmed.startsWith("[Request interrupted")) return NONE;
  if (trimmed.startsWith("<local-command-stdout>")) return { kind: "local-output" };
  if (trimmed.startsWith("<command-name>") || trimmed.startsWith("<command-message>")) {
    const name = tagText(trimmed, "command-name");
    if (!name || OWN_COMMANDS.has(name) || LOCAL_COMMANDS.has(name)) return NONE;
    const args = tagText(trimmed, "command-args");
    return { kind: "command", text: args ? `${name} ${args}` : name };
  }
  if (trimmed.startsWith("<bash-input>")) {
    const input = tagText(trimmed, "bash-input");
    return input ? { kind: "prompt", text: `!${input}` } : NONE;
  }
  if (NOT_TYPED.test(trimmed)) return NONE;
  return { kind: "prompt", text: trimmed };
}
