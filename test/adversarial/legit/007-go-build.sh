# operation: go mod init and go build a small program (toolchain in /usr/local/go, cache in ~/.cache)
# requires: go
# timeout: 240
# want: hello from go
set -e
export PATH=$PATH:/usr/local/go/bin
mkdir gocode && cd gocode && go mod init example.com/h >/dev/null 2>&1
printf 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello from go") }\n' > main.go
go build -o h . && ./h
