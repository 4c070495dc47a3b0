package oauth

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/vault"
)

// refresherMain is a second tai process: it opens the vault, says it is
// ready, refreshes the stale token and prints the token it ends up with.
func refresherMain() int {
	ctx := context.Background()
	store, err := vault.Open(ctx, os.Getenv("OAUTH_TEST_HOME"), vault.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer store.Close()
	if resp, err := http.Get(os.Getenv("OAUTH_TEST_READY")); err == nil {
		resp.Body.Close()
	}
	tk := &Tokens{Store: store, Profile: vault.DefaultProfile, Server: "srv", HTTPClient: http.DefaultClient}
	tok, err := tk.Refresh(ctx, os.Getenv("OAUTH_TEST_STALE"), "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Print(tok)
	return 0
}

// Two tai processes sharing a vault refresh the same stale token at the
// same time: one refresh_token grant is made (a second would spend the
// rotated refresh token twice, which real servers punish by revoking the
// login), both end with the same new token, and the rotated refresh token
// is the one stored. The authorization server holds the first grant until
// both processes are about to refresh, so the second one really waits on
// the vault's lock rather than arriving after the first finished.
func TestTokens_TwoProcessesMakeOneGrant(t *testing.T) {
	bothReady, abort := make(chan struct{}), make(chan struct{})
	var readyOnce, abortOnce sync.Once
	var mu sync.Mutex
	ready := 0
	readySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ready++
		if ready == 2 {
			readyOnce.Do(func() { close(bothReady) })
		}
		mu.Unlock()
	}))
	defer readySrv.Close()
	fake := (&oauthtest.Server{OnRefresh: func() {
		select {
		case <-bothReady:
		case <-abort:
		}
	}}).Start(t)
	tk, home := loggedIn(t, fake, "srv")
	stale, _, _ := tk.Load(context.Background())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		out, errOut string
		err         error
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "OAUTH_TEST_REFRESHER=1", "OAUTH_TEST_HOME="+home,
				"OAUTH_TEST_STALE="+stale.Access, "OAUTH_TEST_READY="+readySrv.URL)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			if err != nil {
				abortOnce.Do(func() { close(abort) })
			}
			results <- result{out.String(), errOut.String(), err}
		}()
	}
	r1, r2 := <-results, <-results
	for _, r := range []result{r1, r2} {
		if r.err != nil {
			t.Fatalf("refresher: %v\n%s", r.err, r.errOut)
		}
	}
	if r1.out != r2.out || r1.out == stale.Access || !strings.HasPrefix(r1.out, "access-") {
		t.Fatalf("the processes ended with %q and %q (stale %q)", r1.out, r2.out, stale.Access)
	}
	if st := fake.Stats(); st.RefreshGrants != 1 {
		t.Fatalf("%d refresh grants, want 1", st.RefreshGrants)
	}
	now, _, _ := tk.Load(context.Background())
	if now.Access != r1.out {
		t.Fatalf("the vault holds %q, the processes %q", now.Access, r1.out)
	}
	// The stored refresh token is the rotated one: it works once more.
	if _, err := tk.Refresh(context.Background(), now.Access, ""); err != nil {
		t.Fatalf("refreshing with the stored (rotated) refresh token: %v", err)
	}
}
