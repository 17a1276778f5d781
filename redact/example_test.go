package redact_test

import (
	"fmt"

	"github.com/aixbroker/aixbroker/redact"
)

func ExampleRender() {
	env := []byte(`# staging
DATABASE_URL=postgres://app:hunter2@db:5432/app
export STRIPE_KEY="sk_test_51Hx9QwErTy"
EMPTY=
`)
	fmt.Print(string(redact.Render("/home/u/proj/.env", env, redact.ModeKeys, "redact:**/.env")))
	fmt.Print(string(redact.Render("/home/u/proj/.env", env, redact.ModeStub, "redact:**/.env")))
	// Output:
	// # Values redacted by aixbroker (rule redact:**/.env).
	// # [redacted]
	// DATABASE_URL=[redacted]
	// export STRIPE_KEY=[redacted]
	// EMPTY=
	// This file is redacted by aixbroker (rule redact:**/.env). Its content is not shown.
}

func ExampleFormat() {
	fmt.Println(redact.Format("/home/u/.aws/credentials", nil))
	fmt.Println(redact.Format("/home/u/.kube/config", nil))
	fmt.Println(redact.Format("/tmp/blob", []byte("-----BEGIN CERTIFICATE-----\n")))
	fmt.Println(redact.Format("/tmp/notes.txt", []byte("hunter2\n")) == "")
	// Output:
	// aws
	// yaml
	// pem
	// true
}
