// Package version holds the build version, set by the Makefile with -ldflags.
package version

// Version is the aixbroker release, "dev" for an unversioned build.
var Version = "dev"
