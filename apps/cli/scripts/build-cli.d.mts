export declare function buildCli(options: { repoRoot: string; outDir: string }): Promise<{
  cli: { outfile: string; bytes: number };
  release: { manifestPath: string; entries: number };
}>;
