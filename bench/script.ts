/**
 * Runs a bench when its file is the one `tsx bench/<name>.ts` started (not when `bench/run.ts`
 * imports it): prints the Markdown lines it returns, and exits 1 on a failure.
 */
export function runWhenMain(module: NodeModule, bench: () => Promise<string[] | void>): void {
  if (require.main !== module) return;
  bench()
    .then((lines) => {
      if (lines) console.log(lines.join('\n'));
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
