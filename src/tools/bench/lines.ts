/**
 * Watch streams arrive as text chunks that cut events anywhere; a watch sends one JSON event per line (as
 * kube-apiserver's JSON watch encoding does). The bench's raw watch clients split them here.
 */

/** A chunk consumer that calls `onLine` for every complete line, keeping a partial last line for the next chunk. */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let buf = "";
  return (chunk) => {
    buf += chunk;
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
    }
  };
}
