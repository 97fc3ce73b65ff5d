/** `workbook lab`: not built yet. */
export async function run(_args: string[]): Promise<number> {
  process.stderr.write("workbook lab: not implemented yet\n");
  return 1;
}
