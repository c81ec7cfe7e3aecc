import { join, sep } from "node:path";

/**
 * `path.join`'s result, without its normalizing pass when there is nothing to normalize (no empty part, no `.` or
 * `..` segment, no doubled separator): on Node 24 and 26, V8 optimizes that pass's loop on the stack, on the main
 * thread, a few joins into a process, which every hook and status line start would pay for.
 */
export function joinPath(...parts: string[]): string {
  const joined = parts.join("/");
  return sep === "/" && !parts.includes("") && !/^$|\/\/|(^|\/)\.\.?(\/|$)/.test(joined) ? joined : join(...parts);
}
