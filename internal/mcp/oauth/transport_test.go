package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/vault"
)

// listTools posts tools/list to the fake through hc and returns the status.
func listTools(t *testing.T, hc *http.Client, url string) (int, error) {
	t.Helper()
	resp, err := hc.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func TestTransport_SendsTheBearerToken(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	hc := &http.Client{Transport: &Transport{Tokens: tk}}
	if status, err := listTools(t, hc, fake.URL); status != 200 || err != nil {
		t.Fatalf("tools/list = %d, %v", status, err)
	}
	if st := fake.Stats(); st.Bearers != 1 || st.RefreshGrants != 0 {
		t.Fatalf("the fake saw %+v", st)
	}
}

func TestTransport_WithoutALoginA401PassesThrough(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	tk.Server = "never-logged-in"
	hc := &http.Client{Transport: &Transport{Tokens: tk}}
	if status, err := listTools(t, hc, fake.URL); status != 401 || err != nil {
		t.Fatalf("tools/list = %d, %v", status, err)
	}
}

// A 401 mid-session (the server's clock expired the token) refreshes once
// and retries; concurrent requests hitting it together still make one
// refresh grant.
func TestTransport_A401RefreshesOnceAndRetries(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	hc := &http.Client{Transport: &Transport{Tokens: tk}}
	fake.RevokeAccess()
	const n = 6
	var wg sync.WaitGroup
	statuses := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], errs[i] = listTools(t, hc, fake.URL)
		}()
	}
	wg.Wait()
	for i := range n {
		if statuses[i] != 200 || errs[i] != nil {
			t.Fatalf("request %d = %d, %v", i, statuses[i], errs[i])
		}
	}
	if st := fake.Stats(); st.RefreshGrants != 1 {
		t.Fatalf("%d refresh grants, want 1", st.RefreshGrants)
	}
}

func TestTransport_FailedRefreshAfter401NamesTheLogin(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	hc := &http.Client{Transport: &Transport{Tokens: tk}}
	fake.RevokeAccess()
	fake.ExpireRefresh()
	_, err := listTools(t, hc, fake.URL)
	var re *RefreshError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "`tai mcp login srv`") {
		t.Fatalf("err = %v", err)
	}
}

// After a 401 the token endpoint is discovered again: a stored endpoint
// that no longer answers does not end the login.
func TestTransport_A401DiscoversTheTokenEndpointAgain(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	names := SecretNames("srv")
	err := tk.Store.UpdateSecrets(context.Background(), vault.DefaultProfile, names, func(cur map[string]vault.SecretValue) (map[string]*vault.SecretValue, error) {
		acc := cur[names[0]]
		acc.Meta[metaEndpoint] = "http://127.0.0.1:1/gone"
		return map[string]*vault.SecretValue{names[0]: &acc}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fake.RevokeAccess()
	hc := &http.Client{Transport: &Transport{Tokens: tk}}
	if status, err := listTools(t, hc, fake.URL); status != 200 || err != nil {
		t.Fatalf("tools/list = %d, %v", status, err)
	}
	if st := fake.Stats(); st.RefreshGrants != 1 {
		t.Fatalf("%d refresh grants", st.RefreshGrants)
	}
}
