export declare function assembleRelease(options: { repoRoot: string; outDir: string }): Promise<{ manifestPath: string; entries: number }>;
export declare function carryoverPackages(repoRoot: string): string[];
export declare function buildPairs(pkg: { scripts?: Record<string, string> }, where: string): Array<{ entry: string; outfile: string }>;
