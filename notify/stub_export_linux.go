package notify

import "github.com/aixbroker/aixbroker/policy"

// StubContent is what a redacted file reads as in the sandbox, for the
// interposer's stat answers (broker.StubFunc): the same bytes injectStub
// serves.
func StubContent(path string, rule policy.Rule) []byte { return stubContent(path, rule) }
