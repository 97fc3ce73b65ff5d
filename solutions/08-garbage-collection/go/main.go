// LAB 08, Go track (given, the same in labs/ and solutions/): the program the grader runs, once per
// requirement, on a cluster whose own garbage collector is off. labkit.Run builds a controller-runtime manager
// for the namespace the grader names; SetupCollector (collector.go) registers the collector's two controllers.
// Your work is in decisions.go.
package main

import (
	"github.com/kube-controller-workbook/labkit"
)

func main() {
	labkit.Run(SetupCollector)
}
