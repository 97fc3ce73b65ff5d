/** `workbook grade`: not built yet. */
export async function run(_args: string[]): Promise<number> {
  process.stderr.write("workbook grade: not implemented yet\n");
  return 1;
}
