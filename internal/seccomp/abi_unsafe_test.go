//go:build linux

package seccomp

import (
	"testing"
	"unsafe"
)

func TestStructSizes(t *testing.T) {
	tests := []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"seccomp_data", unsafe.Sizeof(SeccompData{}), sizeofSeccompData},
		{"seccomp_notif", unsafe.Sizeof(SeccompNotif{}), sizeofSeccompNotif},
		{"seccomp_notif_resp", unsafe.Sizeof(SeccompNotifResp{}), sizeofSeccompNotifResp},
		{"seccomp_notif_addfd", unsafe.Sizeof(SeccompNotifAddfd{}), sizeofSeccompNotifAdd},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("sizeof(%s) = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}
