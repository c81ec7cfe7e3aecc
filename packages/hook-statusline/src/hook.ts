// Status line command: context use as a share of the auto-compact point; records the reading, raises the
// level markers, and shows the user's own status line (chained) beside it.
import { errorMessage, levelPercent, type StatusLineContext, type StatusLineDefinition } from "@carryover/core";
import { type ChainOptions, type ChainOutcome, runChained } from "./chain.ts";
import { colorAllowed, toneOf } from "./color.ts";
import { composeLines, type OurLine } from "./compose.ts";
import { keys } from "./config.ts";
import { statusLineFacts } from "./facts.ts";
import { columnsOf } from "./fit.ts";
import { lineValues, renderLine } from "./line.ts";
import { remember } from "./remember.ts";
import { renderInSh } from "./render-in-sh.ts";
import { readingOf, sizesOf } from "./sizes.ts";

/** Shown when nothing can be measured (unreadable stdin, an internal error): never a blank line. */
export const FALLBACK_LINE = "ctx ?";
/** Set for the chained command: a chainCommand that runs carryover's statusline again must not recurse. */
export const CHAINED_ENV = "CARRYOVER_STATUSLINE_CHAINED";

/**
 * The renders that only rewrite the reading, in sh and awk before Node starts (render-in-sh.ts); the rest is Node's.
 * @public read by name by packages/build (src/launch.mjs), which runs this file's bundle.
 */
export const shRender = /* @__PURE__ */ renderInSh(CHAINED_ENV);

type Context = StatusLineContext<typeof keys>;

export type Chain = (command: string, stdinText: string, options: ChainOptions) => Promise<ChainOutcome>;

export async function render(context: Context, chain: Chain = runChained): Promise<string> {
  const theirs = chained(context, chain);
  const ours = context.enabled ? ourLine(context) : null;
  return composeLines(ours, await theirs, context.config.hook.chainPosition, columnsOf(context.env.COLUMNS));
}

export const statusLine: StatusLineDefinition<typeof keys> = {
  name: "statusline",
  keys,
  render: (context) => render(context),
  fallbackLine: FALLBACK_LINE,
};

async function chained({ config, env, stdinText, log }: Context, chain: Chain): Promise<string[]> {
  const command = config.hook.chainCommand.trim();
  if (command === "") return [];
  if (env[CHAINED_ENV]) {
    log("chainCommand runs carryover's statusline again; not chaining it twice");
    return [];
  }
  const options = { timeoutMs: config.hook.chainTimeoutMs, env: { ...env, [CHAINED_ENV]: "1" } };
  const outcome = await chain(command, stdinText, options);
  if ("problem" in outcome) {
    log(outcome.problem);
    return [];
  }
  return outcome.lines;
}

function ourLine({ payload, session, env, nowMs, config, projectDir, log }: Context): OurLine {
  if (!payload) return { text: FALLBACK_LINE, tone: null };
  const facts = statusLineFacts(payload);
  const sizes = sizesOf(facts, env, projectDir, config.shared.contextWindowTokens);
  const reading = readingOf(facts, sizes, nowMs);
  if (reading && session) {
    // The line shows whether or not its reading could be kept for the hooks.
    try {
      remember(session, reading, config.shared);
    } catch (error) {
      log(`reading not recorded: ${errorMessage(error)}`);
    }
  }
  const format = sizes.autoCompactTokens === null ? config.hook.formatNoAutoCompact : config.hook.format;
  const text = renderLine(format, lineValues(reading, sizes, facts.modelName ?? facts.modelId));
  const colored = reading && colorAllowed(config.hook.color, env);
  const tone = colored ? toneOf(levelPercent(reading), config.shared.levels) : null;
  return { text, tone };
}
