package sbpl

import "testing"

// FuzzEvaluator: the profile reader never panics, and whatever it accepts
// it answers for.
func FuzzEvaluator(f *testing.F) {
	f.Add(`(version 1)(deny default)(allow file-read* (subpath "/a") (regex #"^/b/[^/]*$"))`)
	f.Add(`(deny file-write* (require-not (literal "/x")))`)
	f.Add(`(allow default)(deny process-exec* (regex #"/(curl|wget)$"))`)
	f.Add(`((((`)
	f.Fuzz(func(t *testing.T, src string) {
		ev, err := NewEvaluator([]byte(src))
		if err != nil {
			return
		}
		ev.Decide("file-read-data", "/a/b")
	})
}
