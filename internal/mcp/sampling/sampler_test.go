package sampling

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// model is a fake llm.Client: it records each request and answers with
// reply.
type model struct {
	mu    sync.Mutex
	got   []llm.Request
	reply string
	stop  string
	fail  error
}

var _ llm.Client = (*model)(nil)

func (m *model) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.got = append(m.got, req)
	if m.fail != nil {
		return llm.Response{}, m.fail
	}
	stop := m.stop
	if stop == "" {
		stop = llm.StopEndTurn
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: m.reply}, StopReason: stop,
		Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}}, nil
}

func (m *model) requests() []llm.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]llm.Request(nil), m.got...)
}

// person is a scripted Person: its answers, and the screens it saw.
type person struct {
	mu       sync.Mutex
	decision Decision
	send     bool
	screens  []Screen
	// asked, when set, receives each request screen before it is
	// answered, and the answer waits for release.
	asked   chan Screen
	release chan struct{}
}

func (p *person) ApproveRequest(ctx context.Context, s Screen) (Decision, error) {
	p.mu.Lock()
	p.screens = append(p.screens, s)
	p.mu.Unlock()
	if p.asked != nil {
		p.asked <- s
		<-p.release
	}
	return p.decision, nil
}

func (p *person) SendReply(ctx context.Context, s Screen) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.screens = append(p.screens, s)
	return p.send, nil
}

func (p *person) seen() []Screen {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Screen(nil), p.screens...)
}

func newSampler(t *testing.T, m *model, p *person) (*Sampler, *[]string) {
	t.Helper()
	st, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "home"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var notices []string
	s := &Sampler{Model: m, ModelName: "openai:gpt-test", Store: st, Profile: vault.DefaultProfile,
		Notices: func(l string) { notices = append(notices, l) }}
	if p != nil {
		s.Person = p
	}
	return s, &notices
}

func audited(t *testing.T, s *Sampler) []string {
	t.Helper()
	rows, err := s.Store.AuditEntries(context.Background(), vault.AuditQuery{Kind: vault.KindMCPSample})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Subject+" "+r.Outcome)
	}
	return out
}

func wireCode(err error) int64 {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

const question = `{"messages":[{"role":"user","content":{"type":"text","text":"What is 2+2?"}}],"systemPrompt":"Be brief.","maxTokens":1000000}`

// Approved once, the request runs on the profile's model with no tools and
// the clamped token count, the person sees the reply before it goes, and
// the server gets a CreateMessageResult; the call is counted as sampling
// and audited once as sent.
func TestSample_ApprovedOnceRunsAndSends(t *testing.T) {
	m := &model{reply: "4"}
	p := &person{decision: Once, send: true}
	s, _ := newSampler(t, m, p)
	out, err := s.Sample(context.Background(), "calc", json.RawMessage(question))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	want := Result{Role: "assistant", Content: TextContent{Type: "text", Text: "4"}, Model: "openai:gpt-test", StopReason: "endTurn"}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	reqs := m.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls", len(reqs))
	}
	wantReq := llm.Request{System: "Be brief.", MaxTokens: wire.SamplingMaxTokens, Messages: []llm.Message{{Role: llm.RoleUser, Content: "What is 2+2?"}}}
	if diff := cmp.Diff(wantReq, reqs[0]); diff != "" {
		t.Errorf("model request (-want +got):\n%s", diff)
	}
	screens := p.seen()
	if len(screens) != 2 {
		t.Fatalf("the person saw %d screens; want the request and the reply", len(screens))
	}
	for _, want := range []string{"MCP server calc", "│ Be brief.", "│ What is 2+2?", "asked 1000000, clamped to MCP_SAMPLING_MAX_TOKENS", "4096"} {
		if !strings.Contains(screens[0].Title+"\n"+screens[0].Detail, want) {
			t.Errorf("the request screen lacks %q:\n%s", want, screens[0].Detail)
		}
	}
	if !strings.Contains(screens[1].Detail, "│ 4\n") || !strings.Contains(screens[1].Title, "calc") {
		t.Errorf("the reply screen does not show the reply:\n%s", screens[1].Detail)
	}
	if got := audited(t, s); !cmp.Equal(got, []string{"calc sent"}) {
		t.Errorf("audit rows %q", got)
	}
	u, err := s.Store.UsageOf(context.Background(), vault.DefaultProfile, vault.UsageSampling("calc"))
	if err != nil || u.Calls != 1 || u.Input != 12 || u.Output != 3 {
		t.Errorf("sampling usage %+v, %v", u, err)
	}
}

// Each way a request does not get through: the error the server gets, the
// audit outcome, whether the model ran, and the one line a person reads
// when nobody was asked.
func TestSample_NotThrough(t *testing.T) {
	huge := `{"messages":[{"role":"user","content":{"type":"text","text":"` + strings.Repeat("x", wire.SamplingMaxBytes) + `"}}],"maxTokens":10}`
	for _, tt := range []struct {
		name    string
		person  *person
		params  string
		code    int64
		outcome string
		ran     bool
		notice  string
	}{
		{"denied", &person{decision: Deny}, question, wire.CodeUserRejected, vault.OutcomeDenied, false, ""},
		{"reply withheld", &person{decision: Once, send: false}, question, wire.CodeUserRejected, vault.OutcomeWithheld, true, ""},
		{"nobody there", nil, question, wire.CodeUserRejected, vault.OutcomeRefused, false, "nobody is at tai's terminal"},
		{"too large", &person{decision: Once, send: true}, huge, wire.CodeInvalidParams, vault.OutcomeRefused, false, "over MCP_SAMPLING_MAX_BYTES"},
		{"no messages", &person{decision: Once, send: true}, `{"messages":[],"maxTokens":5}`, wire.CodeInvalidParams, vault.OutcomeRefused, false, "no messages"},
		{"tool use", &person{decision: Once, send: true}, `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"1","name":"x","input":{}}}],"maxTokens":5}`,
			wire.CodeInvalidParams, vault.OutcomeRefused, false, "without tools"},
		{"bad role", &person{decision: Once, send: true}, `{"messages":[{"role":"system","content":{"type":"text","text":"x"}}],"maxTokens":5}`,
			wire.CodeInvalidParams, vault.OutcomeRefused, false, "want user or assistant"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &model{reply: "4"}
			s, notices := newSampler(t, m, tt.person)
			if tt.person == nil {
				s.Person = nil
			}
			out, err := s.Sample(context.Background(), "calc", json.RawMessage(tt.params))
			if err == nil || out != nil || wireCode(err) != tt.code {
				t.Fatalf("Sample = %s, %v; want code %d", out, err, tt.code)
			}
			if got := audited(t, s); !cmp.Equal(got, []string{"calc " + tt.outcome}) {
				t.Errorf("audit rows %q; want %s", got, tt.outcome)
			}
			if ran := len(m.requests()) > 0; ran != tt.ran {
				t.Errorf("the model ran: %v; want %v", ran, tt.ran)
			}
			switch {
			case tt.notice == "" && len(*notices) > 0:
				t.Errorf("notices %q; want none", *notices)
			case tt.notice != "" && (len(*notices) != 1 || !strings.Contains((*notices)[0], tt.notice) || strings.Contains((*notices)[0], "\n")):
				t.Errorf("notices %q; want one line with %q", *notices, tt.notice)
			}
		})
	}
}

// "Always for this server" stores a sampling grant: the server's next
// request runs without the request screen, and its reply is still shown.
func TestSample_AlwaysGrantsTheServer(t *testing.T) {
	ctx := context.Background()
	p := &person{decision: Always, send: true}
	s, _ := newSampler(t, &model{reply: "4"}, p)
	for range 2 {
		if _, err := s.Sample(ctx, "calc", json.RawMessage(question)); err != nil {
			t.Fatal(err)
		}
	}
	var titles []string
	for _, sc := range p.seen() {
		titles = append(titles, sc.Title)
	}
	want := []string{"sampling request from MCP server calc", "send the model's reply to MCP server calc", "send the model's reply to MCP server calc"}
	if diff := cmp.Diff(want, titles); diff != "" {
		t.Errorf("screens (-want +got):\n%s", diff)
	}
	if ok, err := s.Store.HasGrant(ctx, vault.DefaultProfile, vault.GrantSampling, "calc"); !ok || err != nil {
		t.Errorf("no sampling grant: %v", err)
	}
	if ok, _ := s.Store.HasGrant(ctx, vault.DefaultProfile, vault.GrantServer, "calc"); ok {
		t.Error("a sampling grant also granted the server's tools")
	}
}

// sampling_auto under --auto or --yolo answers without a person, with a
// notice for each step.
func TestSample_AutoNeedsNoPerson(t *testing.T) {
	s, notices := newSampler(t, &model{reply: "4"}, nil)
	s.Person, s.Auto = nil, true
	if _, err := s.Sample(context.Background(), "calc", json.RawMessage(question)); err != nil {
		t.Fatal(err)
	}
	if len(*notices) != 2 || !strings.Contains((*notices)[0], "sampling_auto") {
		t.Errorf("notices %q", *notices)
	}
	if got := audited(t, s); !cmp.Equal(got, []string{"calc sent"}) {
		t.Errorf("audit rows %q", got)
	}
}

// While one request of a server waits for the person, the server's next
// is refused at once; another server's is not.
func TestSample_OneAtATimePerServer(t *testing.T) {
	ctx := context.Background()
	p := &person{decision: Once, send: true, asked: make(chan Screen), release: make(chan struct{})}
	s, _ := newSampler(t, &model{reply: "4"}, p)
	first := make(chan error, 1)
	go func() {
		_, err := s.Sample(ctx, "calc", json.RawMessage(question))
		first <- err
	}()
	<-p.asked
	_, err := s.Sample(ctx, "calc", json.RawMessage(question))
	if wireCode(err) != wire.CodeUserRejected || !strings.Contains(err.Error(), "one at a time") {
		t.Errorf("second request of the same server: %v", err)
	}
	other := make(chan error, 1)
	go func() {
		_, err := s.Sample(ctx, "other", json.RawMessage(question))
		other <- err
	}()
	if sc := <-p.asked; sc.Server != "other" {
		t.Errorf("asked about %s; want other", sc.Server)
	}
	p.release <- struct{}{}
	p.release <- struct{}{}
	if err := <-first; err != nil {
		t.Error(err)
	}
	if err := <-other; err != nil {
		t.Error(err)
	}
	if got := audited(t, s); len(got) != 3 || got[0] != "calc refused" {
		t.Errorf("audit rows %q; want the refusal first, then two sent", got)
	}
}

// An image reaches the model as a line saying it was left out, and the
// reply stops at the first of the server's stop sequences.
func TestSample_ImagesAndStopSequences(t *testing.T) {
	m := &model{reply: "one\nSTOP two"}
	s, _ := newSampler(t, m, &person{decision: Once, send: true})
	params := `{"messages":[{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","mimeType":"image/png","data":"aGk="}]}],"maxTokens":50,"stopSequences":["STOP"]}`
	out, err := s.Sample(context.Background(), "calc", json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	json.Unmarshal(out, &res)
	if res.Content.Text != "one\n" || res.StopReason != "stopSequence" {
		t.Errorf("result %+v", res)
	}
	got := m.requests()[0]
	if got.MaxTokens != 50 || got.Messages[0].Content != "see\n[image, image/png, 4 bytes of base64, not shown to the model]" {
		t.Errorf("model request %+v", got)
	}
}
