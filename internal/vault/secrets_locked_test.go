package vault

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tai/internal/seal"
)

func TestUpdateSecrets_WritesDeletesAndKeepsMeta(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.SetSecret(ctx, DefaultProfile, "a", "alpha-1", map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSecret(ctx, DefaultProfile, "b", "bravo-1", nil); err != nil {
		t.Fatal(err)
	}
	err := s.UpdateSecrets(ctx, DefaultProfile, []string{"a", "b", "c"}, func(cur map[string]SecretValue) (map[string]*SecretValue, error) {
		if len(cur) != 2 || cur["a"].Value != "alpha-1" || cur["a"].Meta["k"] != "v" || cur["b"].Value != "bravo-1" {
			t.Errorf("cur = %+v", cur)
		}
		return map[string]*SecretValue{
			"a": {Value: "alpha-2"}, // nil Meta keeps k=v
			"b": nil,
			"c": {Value: "charlie-1", Meta: map[string]string{"n": "1"}},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.SecretWithMeta(ctx, DefaultProfile, "a")
	if err != nil || a.Value != "alpha-2" || a.Meta["k"] != "v" {
		t.Errorf("a = %+v, %v", a, err)
	}
	if _, err := s.SecretWithMeta(ctx, DefaultProfile, "b"); !IsNotFound(err) {
		t.Errorf("b after delete: %v", err)
	}
	c, err := s.SecretWithMeta(ctx, DefaultProfile, "c")
	if err != nil || c.Value != "charlie-1" || c.Meta["n"] != "1" {
		t.Errorf("c = %+v, %v", c, err)
	}
	if got := s.Redact("token charlie-1 here"); !strings.Contains(got, "[secret:c]") {
		t.Errorf("a written secret is not redacted: %q", got)
	}
}

func TestUpdateSecrets_ErrorWritesNothing(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	boom := errors.New("boom")
	err := s.UpdateSecrets(ctx, DefaultProfile, []string{"x"}, func(map[string]SecretValue) (map[string]*SecretValue, error) {
		return map[string]*SecretValue{"x": {Value: "written"}}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.Secret(ctx, DefaultProfile, "x"); !IsNotFound(err) {
		t.Fatalf("x was written: %v", err)
	}
	if err := s.UpdateSecrets(ctx, "nobody", []string{"x"}, nil); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing profile: %v", err)
	}
}

// Read-increment-write under UpdateSecrets from many goroutines over two
// Stores on the same file (two connection pools, as two processes have)
// loses no increment.
func TestUpdateSecrets_SerializesReadCheckWrite(t *testing.T) {
	ctx := context.Background()
	s1, home := openTemp(t)
	s2, err := Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		s := s1
		if i%2 == 1 {
			s = s2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.UpdateSecrets(ctx, DefaultProfile, []string{"counter"}, func(cur map[string]SecretValue) (map[string]*SecretValue, error) {
				v, _ := strconv.Atoi(strings.TrimPrefix(cur["counter"].Value, "count-"))
				return map[string]*SecretValue{"counter": {Value: "count-" + strconv.Itoa(v+1)}}, nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := s1.Secret(ctx, DefaultProfile, "counter"); v != "count-"+strconv.Itoa(n) {
		t.Fatalf("counter = %q, want count-%d", v, n)
	}
}

func TestUpdateSecrets_SealsOnASealedVault(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.Seal(ctx, []byte("P"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	err := s.UpdateSecrets(ctx, DefaultProfile, []string{"tok"}, func(map[string]SecretValue) (map[string]*SecretValue, error) {
		return map[string]*SecretValue{"tok": {Value: "sealed-token", Meta: map[string]string{}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.SecretInfo(ctx, DefaultProfile, "tok")
	if err != nil || !info.Sealed {
		t.Fatalf("info = %+v, %v", info, err)
	}
	if v, err := s.SecretWithMeta(ctx, DefaultProfile, "tok"); err != nil || v.Value != "sealed-token" {
		t.Fatalf("read back = %+v, %v", v, err)
	}
}
