/**
 * The question bank and quiz logic (`kube-controller-workbook/questions`): interview-style questions per
 * notebook, each with an answer that explains why and points back to the cell that showed it.
 *
 * This entry point exists so notebooks and `workbook quiz` can import it by name from day one; the bank itself
 * is filled in by the teaching tools (issue 8).
 */
export {};
