/** `workbook cluster`: not built yet. */
export async function run(_args: string[]): Promise<number> {
  process.stderr.write("workbook cluster: not implemented yet\n");
  return 1;
}
