export declare function assembleRelease(options: {
  repoRoot: string;
  outDir: string;
}): Promise<{ manifestPath: string; entries: number }>;
export declare function carryoverPackages(repoRoot: string): string[];
export declare function readPackage(dir: string): unknown;
