/** `workbook setup`: not built yet (runs from `npm install`, so it must not fail). */
export async function run(_args: string[]): Promise<number> {
  process.stderr.write("workbook setup: nothing to do yet\n");
  return 0;
}
