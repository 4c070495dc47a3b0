package seal

import (
	"errors"
	"testing"
)

func TestSeal_RoundTripAndBinding(t *testing.T) {
	p := CheapParams()
	key := DeriveKey([]byte("correct horse"), p)
	ct, err := Seal(key, []byte("s3cr3t-value-123"), []byte("secrets\x00default\x00A"))
	if err != nil {
		t.Fatal(err)
	}
	if !IsSealed(ct) {
		t.Fatalf("sealed value not recognised: %q", ct)
	}
	pt, err := Open(key, ct, []byte("secrets\x00default\x00A"))
	if err != nil || string(pt) != "s3cr3t-value-123" {
		t.Fatalf("Open = %q, %v", pt, err)
	}
	cases := map[string]struct {
		key []byte
		ad  string
	}{
		"moved to another row": {key, "secrets\x00default\x00B"},
		"wrong passphrase":     {DeriveKey([]byte("wrong"), p), "secrets\x00default\x00A"},
		"other salt":           {DeriveKey([]byte("correct horse"), CheapParams()), "secrets\x00default\x00A"},
	}
	for name, c := range cases {
		if _, err := Open(c.key, ct, []byte(c.ad)); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: Open err = %v, want ErrOpen", name, err)
		}
	}
}

func TestSeal_TamperedValueFails(t *testing.T) {
	key := DeriveKey([]byte("pw"), CheapParams())
	ct, _ := Seal(key, []byte("hello"), nil)
	b := []byte(ct)
	b[len(b)-2] ^= 1
	if _, err := Open(key, string(b), nil); err == nil {
		t.Fatal("tampered value opened")
	}
	if _, err := Open(key, "tai-sealed:v1:!!!", nil); !errors.Is(err, ErrOpen) {
		t.Fatalf("garbage: %v", err)
	}
}

func TestParams_Validate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (Params{}).Validate(); err == nil {
		t.Fatal("zero params accepted")
	}
}

func TestSubkey_PerPurposeAndApartFromTheKey(t *testing.T) {
	key := DeriveKey([]byte("correct horse"), CheapParams())
	a, b := Subkey(key, "audit"), Subkey(key, "other")
	if len(a) != KeySize || Equal(a, b) || Equal(a, key) || !Equal(a, Subkey(key, "audit")) {
		t.Fatalf("subkeys: %x %x of %x", a, b, key)
	}
}
