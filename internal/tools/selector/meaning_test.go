package selector_test

import (
	"slices"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// A request that shares no word with its tool, nor a thesaurus or WordNet
// relative, is found by meaning: "rain" and "umbrella" are near
// "weather", "nvidia" near "gpu", "music" near "song". With meaning off,
// none of these requests matches its tool at all.
func TestRank_MeaningFindsOtherWords(t *testing.T) {
	cat := []*tools.Tool{
		{Name: "place_call", Description: "Place an outbound telephone call to a number"},
		{Name: "send_email", Description: "Send an email message to an address"},
		{Name: "create_invoice", Description: "Create an invoice for a customer"},
		{Name: "competitor_domains", Description: "Find competitor domains ranking for the same keywords"},
		{Name: "forecast", Description: "Get the weather forecast for a city"},
		{Name: "rent_gpu", Description: "Rent a GPU pod in the cloud"},
		{Name: "translate", Description: "Translate text into another language"},
		{Name: "play_track", Description: "Play a song on the speaker"},
	}
	cases := map[string]string{
		"will it rain in lisbon tomorrow":    "forecast",
		"umbrella tomorrow?":                 "forecast",
		"i need an nvidia card for training": "rent_gpu",
		"what music is good for focus":       "play_track",
	}
	back := slices.Clone(cat)
	slices.Reverse(back)
	for _, order := range [][]*tools.Tool{cat, back} {
		wantFirst(t, selector.NewIndex(order), cases)
	}
	selector.Lexical(t)
	ix := selector.NewIndex(cat)
	for in, want := range cases {
		for _, h := range ix.Rank(selector.Query{Input: in}) {
			if h.Tool.Name == want {
				t.Errorf("%q matches %s by its words alone; the case does not test meaning", in, want)
			}
		}
	}
}
