const MAX_SUMMARY_CHARS = 16_000;

// Claude Code's wrapping around a compaction summary: 1.0.57 "…The conversation is summarized below:" and
// "Please continue the conversation…"; 2.1.332 "…The summary below covers…", "Summary:",
// "If you need specific details…".
const OPENING = /^This session is being continued from a previous conversation[^\n]*\n/;
const SUMMARY_LABEL = /^\s*Summary:\s*\n/;
const CLOSINGS = [
  "\nIf you need specific details from before compaction",
  "\nPlease continue the conversation from where we left it off",
  "\nContinue the conversation from where it left off",
];

/** The summary a compaction wrote, out of the first message Claude Code made of it. */
export function summaryBody(text: string): string {
  let body = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>\n?/g, "").replace(OPENING, "");
  body = body.replace(SUMMARY_LABEL, "");
  for (const closing of CLOSINGS) {
    const at = body.indexOf(closing);
    if (at !== -1) body = body.slice(0, at);
  }
  body = body.trim();
  return body.length > MAX_SUMMARY_CHARS ? `${body.slice(0, MAX_SUMMARY_CHARS - 1)}…` : body;
}
