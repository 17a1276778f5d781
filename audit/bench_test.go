//go:build unix

package audit

import (
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWriterThroughput writes b.N event records through one Writer
// with the default configuration (flush every 50 ms or 4096 records,
// 64 Ki-record buffer, rotation at 100 MB, no fsync per batch) and includes
// Close, so the figure is what reaches the file per second, sustained.
func BenchmarkWriterThroughput(b *testing.B) {
	cfg := Config{Path: filepath.Join(b.TempDir(), "audit.jsonl")}
	w, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	r := testEvent("01HV2K0000000000000000000A", 1)
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Write(r)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/record")
	if st := w.Stats(); st.Dropped != 0 {
		b.Fatalf("dropped %d records", st.Dropped)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkWriteCallerLatency is the time a Write call adds on the caller's
// (the broker's) path while the writer keeps up: after every 4096 records
// the clock stops until the flusher has taken the batch, so no call waits
// for room. The flusher runs meanwhile, as it would. It reports the mean
// (ns/op) and, from timed samples, the 99th percentile.
func BenchmarkWriteCallerLatency(b *testing.B) {
	cfg := Config{Path: filepath.Join(b.TempDir(), "audit.jsonl")}
	w, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	r := testEvent("01HV2K0000000000000000000A", 1)
	r.TS = time.Now()
	samples := make([]time.Duration, 0, 1<<16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%flushAt == 0 {
			b.StopTimer()
			waitTaken(w)
			b.StartTimer()
		}
		if i%64 == 0 && len(samples) < cap(samples) {
			t0 := time.Now()
			w.Write(r)
			samples = append(samples, time.Since(t0))
			continue
		}
		w.Write(r)
	}
	b.StopTimer()
	if len(samples) > 0 {
		slices.Sort(samples)
		b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds()), "p99-ns")
	}
}

// BenchmarkEncodeAndHash is the flusher's cost per record: canonical JSON
// and SHA-256.
func BenchmarkEncodeAndHash(b *testing.B) {
	h, _ := newHasher(AlgSHA256, nil)
	a := &appender{h: h, now: time.Now, tail: genesis}
	r := testEvent("01HV2K0000000000000000000A", 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a.buf = a.buf[:0]
		rec := r
		a.encode(&rec)
	}
	b.SetBytes(int64(len(a.buf)))
}

// waitTaken waits until the flusher has taken the pending batch.
func waitTaken(w *Writer) {
	for {
		w.mu.Lock()
		n := len(w.batch)
		w.mu.Unlock()
		if n == 0 {
			return
		}
		w.kickFlusher()
		runtime.Gosched()
	}
}

// cpuTime is the CPU time (user + system) this process has used: on a
// shared machine it says what the writer costs whatever the wall clock says.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDenialWrite compares, on the caller's path, one denial record
// written the three ways: "batched" is Write (into memory; the flusher
// appends later), "sync" is WriteSync (lock, identity check, encode, chain,
// write(2) before it returns; what a refusal costs the agent now), and
// "native" is one write(2) of a line of the same size to a file opened
// O_APPEND, the floor any synchronous log pays.
func BenchmarkDenialWrite(b *testing.B) {
	r := testEvent("01HV2K0000000000000000000A", 5) // a denial
	b.Run("batched", func(b *testing.B) {
		w, err := Open(Config{Path: filepath.Join(b.TempDir(), "audit.jsonl")})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%flushAt == 0 {
				b.StopTimer()
				waitTaken(w)
				b.StartTimer()
			}
			w.Write(r)
		}
	})
	b.Run("sync", func(b *testing.B) {
		w, err := Open(Config{Path: filepath.Join(b.TempDir(), "audit.jsonl")})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := w.WriteSync(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("native", func(b *testing.B) {
		line := MarshalLine(&r)
		line = append(line, '\n')
		fd, err := syscall.Open(filepath.Join(b.TempDir(), "native.jsonl"), syscall.O_WRONLY|syscall.O_CREAT|syscall.O_APPEND|syscall.O_CLOEXEC, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		defer syscall.Close(fd)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := syscall.Write(fd, line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
