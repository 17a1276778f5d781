package fsops

import (
	"reflect"
	"testing"
)

func TestParseStatus(t *testing.T) {
	full := "Name:\tbash\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1001\t1002\t1003\n" +
		"Gid:\t100\t101\t102\t103\nGroups:\t27 4 4 1000 \nCapInh:\t0000000000000000\n" +
		"CapEff:\t000001ffffffffff\n"
	tests := []struct {
		name    string
		in      string
		want    Creds
		wantErr bool
	}{
		{name: "full", in: full, want: Creds{
			UID: [4]uint32{1000, 1001, 1002, 1003}, GID: [4]uint32{100, 101, 102, 103},
			Groups: []uint32{4, 27, 1000}, CapEff: 0x1ffffffffff, Umask: 0o022,
		}},
		{name: "no groups", in: "Umask:\t0077\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\nCapEff:\t0\n",
			want: Creds{Groups: []uint32{}, Umask: 0o077}},
		{name: "no umask (Linux < 4.7)", in: "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\nCapEff:\t0\n", wantErr: true},
		{name: "three uids", in: "Umask:\t0022\nUid:\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\nCapEff:\t0\n", wantErr: true},
		{name: "bad cap", in: "Umask:\t0022\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\nCapEff:\tzz\n", wantErr: true},
		{name: "negative uid", in: "Umask:\t0022\nUid:\t-1\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\nCapEff:\t0\n", wantErr: true},
		{name: "empty", in: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseStatus([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v, wantErr %v", tt.name, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("Umask:\t0022\nUid:\t1\t2\t3\t4\nGid:\t1\t2\t3\t4\nGroups:\t5 6\nCapEff:\tff\n"))
	f.Add([]byte("Uid:\n:\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseStatus(data)
		if err == nil && c.Umask > 0o777 {
			t.Errorf("umask %o out of range", c.Umask)
		}
	})
}
