import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The Debian `chromium` package's executable; the HTML tests need it (`apt-get install -y chromium`). */
function chromiumBin(): string {
  for (const name of ["chromium", "chromium-browser"]) {
    const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
    if (found) return found;
  }
  throw new Error(
    "chromium is not installed: the HTML report tests render the page in it (apt-get install -y chromium)",
  );
}

/** Loads a file in headless Chromium once: the screenshot goes to `screenshotPath`, the rendered DOM is returned. */
export function renderPage(htmlPath: string, screenshotPath: string, size = { width: 1100, height: 1400 }): string {
  const profile = mkdtempSync(join(tmpdir(), "carryover-chromium-"));
  try {
    return execFileSync(
      chromiumBin(),
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--force-device-scale-factor=1",
        `--user-data-dir=${profile}`,
        `--window-size=${size.width},${size.height}`,
        `--screenshot=${screenshotPath}`,
        "--dump-dom",
        `file://${htmlPath}`,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
