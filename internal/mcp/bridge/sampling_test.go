package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/mcp/sampling"
)

// replyModel answers every request with its text.
type replyModel string

func (m replyModel) Complete(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: string(m)}, StopReason: llm.StopEndTurn}, nil
}

// answers is a sampling.Person that answers both screens the same way.
type answers bool

func (a answers) ApproveRequest(context.Context, sampling.Screen) (sampling.Decision, error) {
	if a {
		return sampling.Once, nil
	}
	return sampling.Deny, nil
}

func (a answers) SendReply(context.Context, sampling.Screen) (bool, error) { return bool(a), nil }

// A server's sampling request, made while one of its tools runs (in the
// stateless era: an input request of its input_required result), reaches
// the bridge's Sample hook named by the server; the model's reply, or the
// refusal, goes back to the server, which answers the call with it. A
// bridge without the hook declares no sampling, so the server never asks.
func TestSample_ServerGetsTheReply(t *testing.T) {
	for _, tt := range []struct {
		name      string
		hook      bool
		stateless bool
		person    answers
		want      string
	}{
		{"approved", true, false, true, `"content":{"type":"text","text":"four"},"model":"fake:model","stopReason":"endTurn"`},
		{"denied", true, false, false, `"error":{"code":-1,"message":"the person declined the sampling request"}`},
		{"no hook", false, false, true, "the client declared no sampling capability"},
		{"stateless", true, true, true, `sampling {"role":"assistant","content":{"type":"text","text":"four"},"model":"fake:model","stopReason":"endTurn"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var asked []string
			if tt.hook {
				s := &sampling.Sampler{Model: replyModel("four"), ModelName: "fake:model", Store: f.store, Profile: f.b.Profile, Person: tt.person}
				f.b.Sample = func(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
					asked = append(asked, server)
					return s.Sample(ctx, server, params)
				}
			}
			e := featuresEntry(t, "calc", "sample")
			if tt.stateless {
				e = statelessEntry(t, "calc", "0", "sample")
			}
			f.add(t, e, true)
			res, err := f.invoke(context.Background(), "calc", "sample", `{}`)
			if err != nil || !strings.Contains(res.Text, tt.want) {
				t.Fatalf("sample = %+v, %v; want %s", res, err, tt.want)
			}
			if tt.hook && (len(asked) != 1 || asked[0] != "calc") {
				t.Errorf("the hook was asked for %q; want calc once", asked)
			}
		})
	}
}
