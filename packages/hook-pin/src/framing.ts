import type { PinnedText } from "./pinned.ts";

/** What heads each pinned file in the context, before its path and a colon. */
export const PINNED_BY = "Pinned by the user in";

/** The context: each file framed as what the user pinned, with a note where the cap cut it. */
export function pinnedContext(pins: readonly PinnedText[], maxBytes: number): string {
  return pins
    .map((pin) => {
      const lines = [`${PINNED_BY} ${pin.path}:`];
      if (pin.text) lines.push(pin.text);
      if (pin.cutBytes > 0) {
        const cap = `pinned text is capped at ${bytes(maxBytes)}`;
        lines.push(`[carryover left out the last ${bytes(pin.cutBytes)} of this file: ${cap}.]`);
      }
      return lines.join("\n");
    })
    .join("\n\n");
}

/** The user's warning when the cap cut something; null when everything fit. */
export function capWarning(pins: readonly PinnedText[], maxBytes: number): string | null {
  const cut = pins.filter((pin) => pin.cutBytes > 0);
  if (cut.length === 0) return null;
  const files = cut.map((pin) => `${pin.path} (${bytes(pin.totalBytes)}, ${bytes(pin.cutBytes)} left out)`).join(", ");
  const over = `pinned text is over pin.maxBytes (${bytes(maxBytes)}), so only part of it reaches the model`;
  return `carryover pin: ${over}: ${files}. Shorten the file or raise pin.maxBytes.`;
}

function bytes(count: number): string {
  return `${count.toLocaleString("en-US")} bytes`;
}
