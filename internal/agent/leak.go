package agent

import (
	"context"
	"crypto/sha256"
	"maps"
	"slices"

	"tai/internal/leak"
	"tai/internal/secretenv"
	"tai/internal/tools"
)

// leaks refuses a call that would send a known secret off the machine:
// its arguments carry a vault secret or one of tai's own keys, plain or in
// any common encoding (leak.Find). Such a call is refused in every mode and
// audited as refused-secret; the model is told which secret, never its value.
func (a *Approver) leaks(ctx context.Context, call tools.Call) (Verdict, bool) {
	secrets := a.secrets(ctx)
	if len(secrets) == 0 {
		return Verdict{}, false
	}
	name, how, found := a.leakIndex(secrets).Find(string(call.Args))
	if !found {
		return Verdict{}, false
	}
	why := "refused: the request would carry the secret " + name
	if how != "" && how != "plain" {
		why += " (" + how + ")"
	}
	why += "; tai never sends a known secret to a host. To send a vault secret, name it in the tool's secret argument"
	return Verdict{Reason: why, Refused: true}, true
}

func (a *Approver) secrets(ctx context.Context) map[string]string {
	if a.Secrets != nil {
		return a.Secrets(ctx)
	}
	if a.Store != nil {
		return a.Store.KnownSecrets(ctx)
	}
	return secretenv.Values()
}

// leakIndex is the index of secrets, built once per set of values: an
// index takes milliseconds to build and every bridged call and web
// request is checked, so it is kept until a secret changes.
func (a *Approver) leakIndex(secrets map[string]string) *leak.Index {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(secrets)) {
		h.Write([]byte(name + "\x00" + secrets[name] + "\x00"))
	}
	key := string(h.Sum(nil))
	a.leakMu.Lock()
	defer a.leakMu.Unlock()
	if a.leakIdx == nil || a.leakKey != key {
		a.leakIdx, a.leakKey = leak.NewIndex(secrets), key
	}
	return a.leakIdx
}
