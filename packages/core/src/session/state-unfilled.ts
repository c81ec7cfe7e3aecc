import { STATE_HEADERS, stateSections } from "./state-file.ts";

// What `renderState` puts in a section nobody filled, and what an agent writes for "nothing here".
const EMPTY_BODY = /^(\(none\)|none\.?|n\/a|-|)$/i;

/** Every header present with nothing under any of them: a template nobody filled (yet). */
export function isUnfilledState(text: string): boolean {
  const sections = stateSections(text);
  return STATE_HEADERS.slice(1).every((header) => EMPTY_BODY.test(sections[header] ?? ""));
}
