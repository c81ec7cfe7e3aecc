import { count, percent } from "./format.ts";
import type { Advice, CategoryId, ContextReport } from "./model.ts";

// Thresholds after seed 000 ("Verificar el estado del contexto", "Higiene de sesión"): compact by hand
// between 50 and 70 % of the way to auto-compaction; a category's share is where it stops being noise.
const MANUAL_COMPACT_PERCENT = { from: 50, urgent: 70 };
const SHARE_PERCENT = { toolResults: 30, mcpTools: 10, memoryFiles: 15, skills: 15 };

/** What to do about the context as it stands: the level first, then each category that calls for it. */
export function adviseOn(report: Omit<ContextReport, "advice">): Advice[] {
  const advice: Advice[] = [];
  const level = levelAdvice(report);
  if (level) advice.push({ topic: "level", text: level });
  const byId = new Map(report.categories.map((category) => [category.id, category]));
  const share = (id: CategoryId) => byId.get(id)!;
  const isDominant = (id: CategoryId) => report.dominant === id;
  /** The category is the largest, or past the share where it stops being noise. */
  const callsFor = (id: keyof typeof SHARE_PERCENT) => isDominant(id) || share(id).percent >= SHARE_PERCENT[id];

  const results = share("toolResults");
  if (callsFor("toolResults")) {
    const top = results.parts[0];
    const largest = report.largestItems.find((item) => item.category === "toolResults");
    const mostFrom = top ? `, most of it from ${top.label} (${count(top.tokens)} tokens)` : "";
    const largestIs = largest ? `; the largest is ${largest.label} (${count(largest.tokens)})` : "";
    advice.push({
      topic: "toolResults",
      text:
        `Tool results hold ${percent(results.percent)} of the context${mostFrom}${largestIs}. ` +
        "Long reads and command outputs are the usual cause: " +
        "delegate broad reads to a subagent (the Agent tool, e.g. Explore) so only its answer enters this context, " +
        "or use tools that return just the fragment needed: " +
        "Grep, Read with offset and limit, output piped through head or tail.",
    });
  }
  if (isDominant("messages")) {
    advice.push({
      topic: "messages",
      text:
        `The message history is the largest part (${percent(share("messages").percent)}): ` +
        "the session is heading for the point where compaction is unavoidable. " +
        "Run /compact with precise instructions (the files changed, the test commands, the decisions to keep) " +
        "before auto-compaction does it with none; use /clear when you move on to an unrelated task.",
    });
  }
  const mcp = share("mcpTools");
  if (callsFor("mcpTools")) {
    const servers = mcp.parts.map((part) => `${part.label} ${count(part.tokens)}`).join(", ");
    advice.push({
      topic: "mcpTools",
      text:
        `MCP tools take ${percent(mcp.percent)}${servers ? ` (${servers} tokens)` : ""}: ` +
        "every active server adds its tools to every request. " +
        "Turn off the servers this session does not use (/mcp).",
    });
  }
  const memory = share("memoryFiles");
  if (callsFor("memoryFiles")) {
    const top = memory.parts[0];
    const largest = top ? ` (largest: ${top.label}, ${count(top.tokens)} tokens)` : "";
    advice.push({
      topic: "memoryFiles",
      text:
        `Memory files take ${percent(memory.percent)}${largest} and are sent with every request. ` +
        "Keep CLAUDE.md to what the team requires, and MEMORY.md an index under 200 lines and 25 KB " +
        "with the detail in topic files it points to " +
        "(past that limit Claude Code silently loads only the beginning).",
    });
  }
  const skills = share("skills");
  if (callsFor("skills")) {
    advice.push({
      topic: "skills",
      text:
        `Skills take ${percent(skills.percent)} ` +
        "(the listing of every available skill and the bodies of those invoked): " +
        "disable the plugins and skills this project does not use.",
    });
  }
  if (isDominant("systemPrompt") || isDominant("tools")) {
    const fixed = share("systemPrompt").percent + share("tools").percent;
    advice.push({
      topic: report.dominant as CategoryId,
      text:
        `Most of the context (${percent(fixed)}) is Claude Code's own system prompt and built-in tool definitions: ` +
        "a fixed cost, nothing of this session's to trim.",
    });
  }
  return advice;
}

function levelAdvice(report: Omit<ContextReport, "advice">): string | null {
  if (report.measuredTokens === null) return null;
  if (report.autoCompactTokens === null) {
    return (
      "Auto-compaction is off (DISABLE_AUTO_COMPACT or DISABLE_COMPACT): " +
      'when the window is full the next request fails with "Prompt is too long". Run /compact yourself before then.'
    );
  }
  const at = report.autoCompactPercent ?? 0;
  const tokens = `${count(report.measuredTokens)} of ${count(report.autoCompactTokens)} tokens`;
  const where = `${percent(at)} of the auto-compact point (${tokens})`;
  if (at >= MANUAL_COMPACT_PERCENT.urgent) {
    return (
      `At ${where} auto-compaction is close: ` +
      "run /compact now, with instructions naming what must survive (files changed, test commands, decisions). " +
      "A summary you steer keeps more than the reactive one."
    );
  }
  if (at >= MANUAL_COMPACT_PERCENT.from) {
    return (
      `At ${where}: this is the moment for a manual /compact with instructions ` +
      `(${MANUAL_COMPACT_PERCENT.from}–${MANUAL_COMPACT_PERCENT.urgent} %), ` +
      "before auto-compaction summarises without them."
    );
  }
  return null;
}
