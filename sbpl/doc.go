// Package sbpl turns a compiled aixbroker policy into a macOS sandbox
// profile (SBPL, the Scheme dialect sandbox-exec reads), and evaluates such
// profiles so the translation can be tested on any platform.
//
// The package is pure and portable: it builds and is tested on Linux, where
// no macOS kernel is available to check it. Three parts:
//
//   - TranslateGlob turns a doublestar glob into SBPL path filters
//     (literal, subpath or an anchored regex), refusing what it cannot
//     express exactly;
//   - Generate writes the profile of a policy.Engine: (deny default), a
//     table of system allowances a process needs to start, the policy's
//     allow rules, then its redact and deny rules, then the exec lists;
//   - Evaluator decides (operation, path) queries for the subset of SBPL
//     Generate writes, with the semantics documented on Evaluator (the last
//     applicable rule wins).
//
// Tests check that, for a table of paths and operations, the profile's
// verdict equals policy.Engine.Decide, and keep a golden profile for every
// built-in policy profile in testdata/golden (`go test ./sbpl -update`
// rewrites them). docs/macos.md explains what macOS enforces differently.
package sbpl
