/** `workbook notebooks`: not built yet. */
export async function run(_args: string[]): Promise<number> {
  process.stderr.write("workbook notebooks: not implemented yet\n");
  return 1;
}
