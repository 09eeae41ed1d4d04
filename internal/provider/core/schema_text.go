package core

import "strings"

// UndocumentedStatus completes the description of a `status` that a wait
// reads.
const UndocumentedStatus = " Another status ends a wait with an error."

// BacktickList renders values as "`a`, `b` or `c`" for descriptions.
func BacktickList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}
