package sbpl_test

import (
	"fmt"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/aixbroker/aixbroker/sbpl"
)

// A policy becomes a profile; the evaluator answers like the sandbox for
// the rules the generator writes.
func Example() {
	p, err := policy.Parse("example.yaml", []byte(`
profile: example
filesystem:
  allow_write: ['${PROJECT}/**']
  deny: ['${PROJECT}/secrets/**']
`))
	if err != nil {
		panic(err)
	}
	e, err := policy.Compile(p, policy.Vars{Project: "/Users/u/proj", Home: "/Users/u"})
	if err != nil {
		panic(err)
	}
	profile, err := sbpl.Generate(e, sbpl.Options{})
	if err != nil {
		panic(err)
	}
	ev, err := sbpl.NewEvaluator(profile)
	if err != nil {
		panic(err)
	}
	for _, path := range []string{"/Users/u/proj/main.go", "/Users/u/proj/secrets/key", "/Users/u/other"} {
		fmt.Println(path, ev.Decide("file-write-data", path).Allow)
	}
	filters, _ := sbpl.TranslateGlob("/Users/u/proj/**/*.{js,ts}", false)
	fmt.Println(filters[0])
	// Output:
	// /Users/u/proj/main.go true
	// /Users/u/proj/secrets/key false
	// /Users/u/other false
	// (regex #"^/Users/u/proj/(.*/)?[^/]*\.(js|ts)$")
}
