import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where each check leaves the figures of its last run; RELIABILITY.md quotes them. */
const FIGURES_DIR = join(import.meta.dirname, ".last-run");

export function recordFigures(check: string, figures: Record<string, unknown>): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  writeFileSync(join(FIGURES_DIR, `${check}.json`), `${JSON.stringify({ check, ...figures }, null, 2)}\n`);
}
